import { replies } from '../../../../messaging/replies';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';
import { toldRecently } from './told-recently';

/**
 * STOP is absolute: a message from a phone that opted out is shared with no one (decision 0014).
 * On WhatsApp, where nobody else says how to come back, a hint once a day.
 */
export const optedOut: Act<'opted_out'> = (ctx, message) =>
  ctx.db.transaction(async (tx) => {
    const hint = message.row.channel === 'whatsapp' && !(await toldRecently(tx, message.phone, message.row.createdAt));
    await recordOutcomes(tx, [
      {
        message,
        status: 'ignored',
        userId: message.userId,
        loopId: null,
        reply: hint ? { body: replies.rejoinHint(), kind: 'opt_out_notice' } : undefined,
        error: 'Not shared: this phone opted out (STOP).',
      },
    ]);
  });
