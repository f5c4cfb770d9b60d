import type { DbOrTx } from '../../db/client';
import { enqueueEmail } from '../../mail/outbox';

/** The longest subject an acknowledgement repeats; past it the subject is cut. */
const SUBJECT_MAX_CHARS = 150;

/**
 * Queues the short e-mail that answers a reply, as the text reply answers a text: what was shared
 * where, and what could not be (services/inbound/settle-share.ts words it). Once per reply: its
 * key is the reply's row. "Re: " and the reply's own subject keep it in the same conversation.
 */
export async function queueReplyAck(
  tx: DbOrTx,
  ack: { messageId: number; toAddress: string; subject: string; text: string; userId: number; loopId: number },
): Promise<void> {
  const subject = ack.subject.replace(/\s+/g, ' ').trim().slice(0, SUBJECT_MAX_CHARS);
  await enqueueEmail(tx, {
    kind: 'reply_ack',
    toAddress: ack.toAddress,
    subject: subject === '' ? 'Your update reached Loop' : /^re:/i.test(subject) ? subject : `Re: ${subject}`,
    text: `${ack.text}\n\n- Loop`,
    idempotencyKey: `reply_ack:${ack.messageId}`,
    userId: ack.userId,
    loopId: ack.loopId,
  });
}
