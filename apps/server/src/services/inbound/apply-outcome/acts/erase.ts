import { eq } from 'drizzle-orm';
import { erasureRequests, loops } from '../../../../db/schema';
import { DAY_MS } from '../../../../lib/clock';
import { deleteAccount } from '../../../users/delete-account';
import { ERASED_MARK } from '../../../users/scrub-erased-texts';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/**
 * DELETE with the right code in time (decision 0045): the member and all they sent; the Loops such
 * a member runs (made by staff for them) go too: nobody else was given them. This text's row keeps
 * no words either.
 */
export const erase: Act<'erase'> = async (ctx, message, outcome) => {
  const now = ctx.clock();
  const keys = await ctx.db.transaction(async (tx) => {
    const owned = await tx.select({ id: loops.id }).from(loops).where(eq(loops.creatorId, outcome.userId));
    const gone = await deleteAccount(tx, {
      userId: outcome.userId,
      handOver: [],
      deleteLoops: owned.map((l) => l.id),
      reason: 'erased_by_text',
      now,
    });
    await recordOutcomes(tx, [{ message, status: 'processed', userId: null, loopId: null, reply: outcome.reply }]);
    // The number waits here until that last text is sent, then goes (scrubErasedTexts).
    await tx
      .insert(erasureRequests)
      .values({ phoneNumber: message.phone, codeHash: ERASED_MARK, askedAt: now, expiresAt: new Date(now.getTime() + DAY_MS) });
    return gone;
  });
  for (const key of keys) await ctx.storage.delete(key);
};
