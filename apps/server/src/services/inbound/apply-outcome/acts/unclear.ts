import { UNCLEAR_HELD } from '../../decide-inbound';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';
import { toldRecently } from './told-recently';

/**
 * Might ask to stop: held, never shared (decision 0055). A text is asked once a day, so a run of
 * them is one question; an e-mail is acknowledged each time, as every e-mail reply is.
 */
export const unclear: Act<'unclear'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    const asked = message.row.channel !== 'email' && (await toldRecently(tx, message.phone, message.row.createdAt, outcome.reply));
    await recordOutcomes(tx, [
      { message, status: 'ignored', userId: message.userId, loopId: null, reply: asked ? undefined : outcome.reply, error: UNCLEAR_HELD },
    ]);
  });
