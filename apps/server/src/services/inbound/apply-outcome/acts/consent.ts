import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../../db/client';
import { consentQuestions } from '../../../../db/schema';
import { optInPhone } from '../../../../messaging/opt-outs';
import { replies } from '../../../../messaging/replies';
import { confirmMembership } from '../../../members/confirm-membership';
import { QUESTION_LIFETIME_MS, type ConsentOutcome } from '../../decide-consent';
import type { Reply } from '../../inbound-text';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** An answer to invitations (decision 0033): stored, and the reply. */
export const consent: Act<'consent'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    const { reply, loopId } = await storeConsent(tx, message.phone, outcome, ctx.clock());
    await recordOutcomes(tx, [{ message, status: 'processed', userId: message.userId, loopId, reply }]);
  });

/**
 * Stores an answer to invitations: lifts a STOP (YES), confirms the one membership, keeps or
 * forgets the "which Loop?" question. The reply says "nothing changed" when the membership could
 * no longer be confirmed (answered or expired meanwhile).
 */
async function storeConsent(
  tx: DbOrTx,
  phone: string,
  outcome: ConsentOutcome,
  now: Date,
): Promise<{ reply: Reply | undefined; loopId: number | null }> {
  if (outcome.optIn) await optInPhone(tx, phone);
  if (outcome.ask) {
    const question = { membershipIds: outcome.ask, askedAt: now, expiresAt: new Date(now.getTime() + QUESTION_LIFETIME_MS) };
    await tx
      .insert(consentQuestions)
      .values({ phoneNumber: phone, ...question })
      .onConflictDoUpdate({ target: consentQuestions.phoneNumber, set: question });
  } else if (outcome.clearQuestion) {
    await tx.delete(consentQuestions).where(eq(consentQuestions.phoneNumber, phone));
  }
  if (outcome.confirm === null) return { reply: outcome.reply, loopId: outcome.loopId };
  const joined = await confirmMembership(tx, outcome.confirm, now);
  return joined
    ? { reply: outcome.reply, loopId: joined.loopId }
    : { reply: { body: replies.nothingToJoin(), kind: 'reply' }, loopId: null };
}
