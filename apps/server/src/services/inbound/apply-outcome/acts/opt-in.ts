import { optInPhone } from '../../../../messaging/opt-outs';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** START: the phone may be texted again. */
export const optIn: Act<'opt_in'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    await optInPhone(tx, message.phone);
    await recordOutcomes(tx, [{ message, status: 'processed', userId: message.userId, loopId: null, reply: outcome.reply }]);
  });
