import { erasureRequests } from '../../../../db/schema';
import { replies } from '../../../../messaging/replies';
import { ERASURE_CODE_MS, newErasureCode } from '../../erasure-code';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** DELETE without the right code (decision 0045): a new code goes back, which a second DELETE confirms. */
export const eraseAsk: Act<'erase_ask'> = (ctx, message) =>
  ctx.db.transaction(async (tx) => {
    const now = ctx.clock();
    const { code, codeHash } = newErasureCode(message.phone, ctx.config.SESSION_SECRET);
    const request = { codeHash, askedAt: now, expiresAt: new Date(now.getTime() + ERASURE_CODE_MS) };
    await tx
      .insert(erasureRequests)
      .values({ phoneNumber: message.phone, ...request })
      .onConflictDoUpdate({ target: erasureRequests.phoneNumber, set: request });
    await recordOutcomes(tx, [
      { message, status: 'processed', userId: message.userId, loopId: null, reply: { body: replies.erasureAsk(code), kind: 'reply' } },
    ]);
  });
