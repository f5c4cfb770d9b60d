import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loops, media, updates } from '../../db/schema';
import { storedKeysOf } from '../../media/stored-media';
import { takeUploadedCover } from './loop-cover';

/**
 * Deletes a Loop with its members, updates, media rows (an uploaded cover photo too), invites and newsletters in one
 * transaction (the foreign keys cascade). Returns the storage keys of its media, for the
 * caller to remove from storage once the transaction has committed.
 */
export async function deleteLoop(db: Db, loopId: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const keys = await tx
      .select({ storageKey: media.storageKey, variants: media.variants })
      .from(media)
      .where(inArray(media.updateId, tx.select({ id: updates.id }).from(updates).where(eq(updates.loopId, loopId))));
    const cover = await takeUploadedCover(tx, [loopId]);
    await tx.delete(loops).where(eq(loops.id, loopId));
    return [...keys.flatMap(storedKeysOf), ...cover];
  });
}
