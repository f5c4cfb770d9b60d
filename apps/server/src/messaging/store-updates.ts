import { media, updates } from '../db/schema';
import type { DbOrTx } from '../db/client';
import type { ImageType } from '../storage/image-type';
import { mediaUrl, type MediaStorage } from '../storage/media-storage';
import type { LoopRef } from './route-text';
import type { MessageRow, MessagingContext } from './context';

/**
 * Creates one update per Loop, each with its own copy of the photos (a Loop deleting its update
 * deletes only its copies), and finishes the message in the same transaction. Files are written
 * first; if the transaction fails or finds the updates already made, they are removed again.
 */
export async function storeUpdates(
  ctx: MessagingContext,
  input: {
    row: MessageRow;
    userId: number;
    loops: LoopRef[];
    content: string;
    photos: { bytes: Buffer; contentType: ImageType }[];
    storage: MediaStorage;
    finish: (tx: DbOrTx, mediaUrls: string[]) => Promise<void>;
  },
): Promise<void> {
  const { storage } = input;
  const copies: string[][] = [];
  for (const _loop of input.loops) copies.push(await Promise.all(input.photos.map((p) => storage.put(p.bytes))));
  // Only the files of a committed transaction are kept.
  let attached = new Set<string>();
  try {
    await ctx.db.transaction(async (tx) => {
      attached = new Set();
      let shown: string[] | undefined;
      for (const [index, loop] of input.loops.entries()) {
        const [update] = await tx
          .insert(updates)
          .values({ loopId: loop.id, userId: input.userId, content: input.content, messageId: input.row.id, createdAt: input.row.createdAt })
          .onConflictDoNothing({ target: [updates.messageId, updates.loopId] })
          .returning({ id: updates.id });
        const keys = copies[index] ?? [];
        if (!update || keys.length === 0) continue;
        await tx.insert(media).values(
          input.photos.map((photo, position) => ({
            updateId: update.id,
            storageKey: keys[position] ?? '',
            contentType: photo.contentType,
            bytes: photo.bytes.length,
            position,
            createdAt: input.row.createdAt,
          })),
        );
        for (const key of keys) attached.add(key);
        shown ??= keys.map(mediaUrl);
      }
      await input.finish(tx, shown ?? []);
    });
  } catch (error) {
    attached = new Set();
    throw error;
  } finally {
    for (const key of copies.flat()) if (!attached.has(key)) await storage.delete(key);
  }
}
