import { asc, inArray } from 'drizzle-orm';
import { loops, media, updates } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { ConvertedClip } from '../../media/clip';
import type { ConvertedPhoto } from '../../media/photo';
import { deleteStoredKeys, putMedia, storedKeysOf, type StoredMedia } from '../../media/stored-media';
import { mediaUrl, type MediaStorage } from '../../storage/media-storage';
import type { LoopRef } from '../inbound/route-text';
import type { MessageRow, MessagingContext } from '../../messaging/context';

/**
 * Creates one update per Loop, each with its own copy of the media (a Loop deleting its update
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
    photos: ConvertedPhoto[];
    /** Voice memos and videos, after the photos. */
    clips?: ConvertedClip[];
    storage: MediaStorage;
    finish: (tx: DbOrTx, mediaUrls: string[]) => Promise<void>;
  },
): Promise<void> {
  const { storage } = input;
  const copies: StoredMedia[][] = [];
  try {
    for (const _loop of input.loops) {
      const copy: StoredMedia[] = [];
      copies.push(copy);
      for (const item of [...input.photos, ...(input.clips ?? [])]) copy.push(await putMedia(storage, item));
    }
  } catch (error) {
    await deleteStoredKeys(storage, copies.flat().flatMap(storedKeysOf));
    throw error;
  }
  // Only the files of a committed transaction are kept.
  let attached = new Set<string>();
  try {
    await ctx.db.transaction(async (tx) => {
      attached = new Set();
      // Each update counts on its Loop's row (a trigger, decision 0006), which stays locked until
      // commit. Texts handled side by side may share Loops: their rows are taken in id order, so
      // two such texts never wait on each other in a circle (decision 0016).
      const loopIds = input.loops.map((loop) => loop.id).sort((a, b) => a - b);
      if (loopIds.length > 1) {
        await tx.select({ id: loops.id }).from(loops).where(inArray(loops.id, loopIds)).orderBy(asc(loops.id)).for('no key update');
      }
      // One statement for all of them: the counting trigger runs once.
      const made = await tx
        .insert(updates)
        .values(
          loopIds.map((loopId) => ({
            loopId,
            userId: input.userId,
            content: input.content,
            messageId: input.row.id,
            createdAt: input.row.createdAt,
          })),
        )
        .onConflictDoNothing({ target: [updates.messageId, updates.loopId] })
        .returning({ id: updates.id, loopId: updates.loopId });
      const updateOf = new Map(made.map((update) => [update.loopId, update.id]));
      const rows: (typeof media.$inferInsert)[] = [];
      let shown: string[] | undefined;
      for (const [index, loop] of input.loops.entries()) {
        const updateId = updateOf.get(loop.id);
        const stored = copies[index] ?? [];
        if (updateId === undefined || stored.length === 0) continue;
        rows.push(...stored.map((item, position) => ({ ...item, updateId, position, createdAt: input.row.createdAt })));
        for (const item of stored) attached.add(item.storageKey);
        shown ??= stored.map((item) => mediaUrl(item.storageKey));
      }
      if (rows.length > 0) await tx.insert(media).values(rows);
      await input.finish(tx, shown ?? []);
    });
  } catch (error) {
    attached = new Set();
    throw error;
  } finally {
    for (const item of copies.flat()) if (!attached.has(item.storageKey)) await deleteStoredKeys(storage, storedKeysOf(item));
  }
}
