import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { recordset } from '../../../db/recordset';
import { messages } from '../../../db/schema';
import { textChannel } from '../../../messaging/context';
import { phoneNotOptedOut } from '../../../messaging/opt-outs';
import { insertOutboundRows, type OutboundRow } from '../../../messaging/outbox';
import { phoneCanReceive } from '../../../messaging/recipients';
import { openWhatsappWindow } from '../../../messaging/template-follow-ups';
import { queueReplyAck } from '../../email-replies/queue-reply-ack';
import type { MessageRow } from '../../../messaging/context';
import type { Reply } from '../inbound-text';

/** How one inbound message ends: its row, and the answer that goes back. */
export interface OutcomeRecord {
  /** The stored message, its sender's phone (none for a WhatsApp username) and the Loop an e-mail's address names. */
  message: { row: MessageRow; phone: string | null; loopId?: number | undefined };
  status: 'processed' | 'ignored';
  userId: number | null;
  /** The Loop of a message that went to one Loop only. */
  loopId: number | null;
  reply?: Reply | undefined;
  /** Why it was not handled as usual, for staff. */
  error?: string | undefined;
  /** The stored copies of what it carried; unchanged when absent. */
  mediaUrls?: string[];
}

/**
 * The one writer of how inbound messages end, for one message or a batch, in the caller's
 * transaction: the rows marked handled in one UPDATE (`countAttempt`: the batch's claim counted
 * none), each member's WhatsApp texts open the window once, and the answers go back by the
 * channel that brought each message, by one rule: only the opt-out notice reaches a phone that
 * opted out, and a text only a phone that can receive texts. Rows in id order. Safe to run again:
 * an answer is unique per message.
 */
export async function recordOutcomes(
  tx: DbOrTx,
  records: readonly OutcomeRecord[],
  options: { countAttempt?: boolean } = {},
): Promise<void> {
  if (records.length === 0) return;
  const ordered = [...records].sort((a, b) => a.message.row.id - b.message.row.id);
  const rows = ordered.map((r) => ({
    id: r.message.row.id,
    status: r.status,
    user_id: r.userId,
    loop_id: r.message.loopId ?? r.loopId,
    error: r.error ?? null,
    media_urls: r.mediaUrls ?? null,
  }));
  await tx.execute(sql`update ${messages} m set status = o.status, user_id = o.user_id, loop_id = o.loop_id, error = o.error,
      next_attempt_at = null, attempts = m.attempts + ${options.countAttempt ? 1 : 0},
      media_urls = coalesce(o.media_urls, m.media_urls), updated_at = now()
    from ${recordset('o', { id: 'bigint', status: 'text', user_id: 'bigint', loop_id: 'bigint', error: 'text', media_urls: 'jsonb' }, rows)}
    where m.id = o.id`);
  await openWhatsappWindows(tx, ordered);
  await queueAnswers(tx, ordered);
}

/**
 * Each member's WhatsApp texts open the window once (openWhatsappWindow): from the first of them
 * (it brings the whole texts templates cut short, as it would one text at a time) to the last.
 * Members in id order. Only a WhatsApp text opens WhatsApp's window: the window is per channel.
 */
async function openWhatsappWindows(tx: DbOrTx, records: readonly OutcomeRecord[]): Promise<void> {
  const first = new Map<number, OutcomeRecord>();
  const last = new Map<number, Date>();
  for (const r of records) {
    if (r.userId === null || r.message.row.channel !== 'whatsapp') continue;
    if (!first.has(r.userId)) first.set(r.userId, r);
    last.set(r.userId, r.message.row.createdAt);
  }
  for (const [userId, r] of [...first].sort(([a], [b]) => a - b)) {
    const { row, phone } = r.message;
    await openWhatsappWindow(tx, {
      userId,
      phone,
      fromAddress: row.toAddress,
      at: row.createdAt,
      lastAt: last.get(userId) ?? row.createdAt,
    });
  }
}

/** The answers: a text from the number that was texted, or an e-mail that answers the e-mail. */
async function queueAnswers(tx: DbOrTx, records: readonly OutcomeRecord[]): Promise<void> {
  const answered = records.filter(
    (r): r is OutcomeRecord & { reply: Reply; message: { phone: string } } => !!r.reply && r.message.phone !== null,
  );
  if (answered.length === 0) return;
  const phones = JSON.stringify([...new Set(answered.map((r) => r.message.phone))]);
  const result =
    await tx.execute(sql`select p.phone, ${phoneNotOptedOut(sql`p.phone`)} as "notOptedOut", ${phoneCanReceive(sql`p.phone`)} as "canReceive"
    from jsonb_array_elements_text(${phones}::jsonb) as p(phone)`);
  const phoneRows = (result as { rows: { phone: string; notOptedOut: boolean; canReceive: boolean }[] }).rows;
  const state = new Map(phoneRows.map((p) => [p.phone, p]));
  const texts: OutboundRow[] = [];
  for (const r of answered) {
    const { row, phone } = r.message;
    const facts = state.get(phone);
    // Only the STOP confirmation and the rejoin hint reach a phone that opted out.
    if (r.reply.kind !== 'opt_out_notice' && !facts?.notOptedOut) continue;
    if (row.channel === 'email') {
      if (r.userId === null) continue;
      await queueReplyAck(tx, {
        messageId: row.id,
        toAddress: row.fromAddress,
        subject: row.raw?.subject ?? '',
        text: r.reply.body,
        userId: r.userId,
        loopId: r.message.loopId ?? r.loopId ?? 0,
      });
      continue;
    }
    // A text to a phone whose carrier said it cannot receive them would only fail (decision 0039).
    if (!facts?.canReceive) continue;
    texts.push({
      channel: textChannel(row.channel),
      toAddress: phone,
      // From the number they texted, so the reply lands in the same conversation.
      fromAddress: row.toAddress,
      kind: r.reply.kind,
      body: r.reply.body,
      createdAt: row.createdAt,
      idempotencyKey: `reply:${row.id}`,
      userId: r.userId,
      loopId: r.loopId,
      mediaUrls: [],
    });
  }
  await insertOutboundRows(tx, texts);
}
