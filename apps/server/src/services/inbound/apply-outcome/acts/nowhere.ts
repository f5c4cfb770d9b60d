import type { Outcome } from '../../decide-inbound';
import type { Act, InboundMessage } from '../inbound-message';
import { recordOutcomes, type OutcomeRecord } from '../record-outcomes';

/** To none of the sender's Loops: the reply says why (an unknown phone, a name that fits none or several). */
export const nowhere: Act<'nowhere'> = (ctx, message, outcome) =>
  ctx.db.transaction((tx) => recordOutcomes(tx, [nowhereRecord(message, outcome)]));

export function nowhereRecord(
  message: Pick<InboundMessage, 'row' | 'phone' | 'userId' | 'loopId'>,
  outcome: Extract<Outcome, { kind: 'nowhere' }>,
): OutcomeRecord {
  return {
    message,
    status: 'ignored',
    userId: message.userId,
    loopId: null,
    reply: outcome.reply === undefined ? undefined : { body: outcome.reply, kind: 'reply' },
    error: outcome.note,
  };
}
