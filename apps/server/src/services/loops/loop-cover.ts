import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { LoopCover, SetCoverInput } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../../db/client';
import { loops, media, updates } from '../../db/schema';
import { AppError } from '../../errors';
import { isClipType } from '../../media/clip';
import { convertPhoto } from '../../media/photo';
import { putPhoto, storedKeysOf } from '../../media/stored-media';
import type { MediaStorage } from '../../storage/media-storage';
import { mediaUrl } from '../../storage/media-storage';

/** What a page, e-mail or print view shows of a Loop's cover: absolute when `publicUrl` is given. */
export async function findLoopCover(db: DbOrTx, loopId: number, publicUrl = ''): Promise<LoopCover | null> {
  const [row] = await db
    .select({ name: loops.name, alt: loops.coverAlt, storageKey: media.storageKey, variants: media.variants })
    .from(loops)
    .innerJoin(media, eq(media.id, loops.coverMediaId))
    .where(eq(loops.id, loopId));
  const largest = row?.variants.at(-1);
  if (!row || !largest) return null;
  return {
    url: `${publicUrl}${mediaUrl(row.storageKey)}`,
    width: largest.width,
    height: largest.height,
    alt: row.alt || `Cover photo of ${row.name}`,
  };
}

/**
 * Sets a Loop's cover: one of its own updates' photos (never another Loop's, never a clip), or a
 * photo uploaded now, through the photo pipeline (upright, no metadata, stored sizes). An uploaded
 * cover it replaces is deleted. Returns the storage keys to remove once the transaction committed.
 */
export async function setLoopCover(
  db: Db,
  storage: MediaStorage,
  loopId: number,
  input: Omit<SetCoverInput, 'alt'> & { alt?: string | undefined },
): Promise<string[]> {
  let uploadedKeys: string[] = [];
  let stored: Awaited<ReturnType<typeof putPhoto>> | null = null;
  if (input.photo !== undefined) {
    const converted = await convertPhoto(Buffer.from(input.photo, 'base64'));
    if (!converted.ok) throw new AppError('bad_request', `This photo can't be the cover: ${converted.reason}.`);
    stored = await putPhoto(storage, converted.photo);
    uploadedKeys = storedKeysOf(stored);
  }
  try {
    return await db.transaction(async (tx) => {
      let mediaId: number;
      if (!stored && input.mediaUrl === undefined) {
        // The description alone, of the cover there is.
        const [row] = await tx.select({ coverMediaId: loops.coverMediaId }).from(loops).where(eq(loops.id, loopId));
        if (!row?.coverMediaId) throw new AppError('not_found', 'This Loop has no cover photo to describe. Choose or upload one first.');
        mediaId = row.coverMediaId;
      } else if (stored) {
        const [row] = await tx
          .insert(media)
          .values({ updateId: null, ...stored })
          .returning({ id: media.id });
        mediaId = row!.id;
      } else {
        const key = (input.mediaUrl ?? '').slice('/media/'.length);
        const [row] = await tx
          .select({ id: media.id, contentType: media.contentType, variants: media.variants })
          .from(media)
          .innerJoin(updates, eq(updates.id, media.updateId))
          .where(and(eq(media.storageKey, key), eq(updates.loopId, loopId)));
        if (!row || isClipType(row.contentType) || row.variants.length === 0) {
          throw new AppError('not_found', 'This photo is not one of this Loop’s updates. It may have been deleted.');
        }
        mediaId = row.id;
      }
      const old = await takeUploadedCover(tx, [loopId], mediaId);
      await tx
        .update(loops)
        .set({ coverMediaId: mediaId, ...(input.alt !== undefined ? { coverAlt: input.alt } : {}) })
        .where(eq(loops.id, loopId));
      return old;
    });
  } catch (error) {
    for (const key of uploadedKeys) await storage.delete(key).catch(() => undefined);
    throw error;
  }
}

/** Takes the Loop's cover away (the update's photo stays; an uploaded one is deleted). Returns keys to remove. */
export async function removeLoopCover(db: Db, loopId: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const old = await takeUploadedCover(tx, [loopId]);
    await tx.update(loops).set({ coverMediaId: null, coverAlt: '' }).where(eq(loops.id, loopId));
    return old;
  });
}

/**
 * Deletes the rows of the uploaded covers (media of no update) of these Loops, but `keep`, before
 * they are replaced or their Loops deleted; answers their storage keys.
 */
export async function takeUploadedCover(tx: DbOrTx, loopIds: number[], keep?: number): Promise<string[]> {
  if (loopIds.length === 0) return [];
  const rows = await tx
    .select({ id: media.id, storageKey: media.storageKey, variants: media.variants })
    .from(loops)
    .innerJoin(media, eq(media.id, loops.coverMediaId))
    .where(and(inArray(loops.id, loopIds), isNull(media.updateId)));
  const gone = rows.filter((r) => r.id !== keep);
  if (gone.length === 0) return [];
  await tx.delete(media).where(
    inArray(
      media.id,
      gone.map((r) => r.id),
    ),
  );
  return gone.flatMap(storedKeysOf);
}
