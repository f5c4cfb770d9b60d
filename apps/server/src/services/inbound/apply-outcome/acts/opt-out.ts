import { optOutPhone } from '../../../../messaging/opt-outs';
import { suppressAddress } from '../../../email/unsubscribe';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** Stops texting the phone; an e-mail that asks to stop stops e-mails to its address too. */
export const optOut: Act<'opt_out'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    if (message.row.channel === 'email') await suppressAddress(tx, message.row.fromAddress, 'replied asking to stop');
    await optOutPhone(tx, message.phone, outcome.reason, ctx.clock());
    await recordOutcomes(tx, [
      { message, status: 'processed', userId: message.userId, loopId: null, reply: outcome.reply, error: outcome.note },
    ]);
  });
