import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { media, updates } from '../../db/schema';
import { AppError } from '../../errors';
import { storedKeysOf } from '../../media/stored-media';
import { rewriteNewslettersCovering } from '../newsletters/rewrite-newsletters';
import { canDeleteUpdate, type LoopAccess } from '../loop-access';

/**
 * Deletes one update of a Loop, and its words and media from every newsletter that showed them
 * (rewritten in the same transaction). Returns the storage keys of its media, for the caller to
 * remove from storage once the transaction has committed.
 */
export async function deleteUpdate(db: Db, access: LoopAccess, updateId: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [update] = await tx
      .select({ id: updates.id, userId: updates.userId, createdAt: updates.createdAt })
      .from(updates)
      .where(and(eq(updates.id, updateId), eq(updates.loopId, access.loop.id)))
      .for('update');
    if (!update) throw new AppError('not_found', 'Update not found. It may have been deleted already.');
    if (!canDeleteUpdate(access, update.userId)) {
      throw new AppError('forbidden', "You can delete your own updates; only the Loop's creator can delete others'.");
    }
    const keys = await tx
      .select({ storageKey: media.storageKey, variants: media.variants })
      .from(media)
      .where(eq(media.updateId, update.id));
    await tx.delete(updates).where(eq(updates.id, update.id));
    await rewriteNewslettersCovering(tx, { loopId: access.loop.id, at: update.createdAt });
    return keys.flatMap(storedKeysOf);
  });
}
