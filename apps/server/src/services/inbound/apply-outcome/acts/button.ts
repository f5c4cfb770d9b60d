import type { Act, InboundMessage } from '../inbound-message';
import { recordOutcomes, type OutcomeRecord } from '../record-outcomes';

/** A template's quick-reply button: it opens the WhatsApp window (recordOutcomes), shares nothing. */
export const button: Act<'button'> = (ctx, message) => ctx.db.transaction((tx) => recordOutcomes(tx, [buttonRecord(message)]));

export function buttonRecord(message: Pick<InboundMessage, 'row' | 'phone' | 'userId'>): OutcomeRecord {
  return { message, status: 'processed', userId: message.userId, loopId: null };
}
