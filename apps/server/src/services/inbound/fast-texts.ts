import { sql } from 'drizzle-orm';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../../db/client';
import { recordset } from '../../db/recordset';
import { loops, messages, updates } from '../../db/schema';
import { textChannel, type MessageRow } from '../../messaging/context';
import { insertOutboundRows, type OutboundRow } from '../../messaging/outbox';
import { phoneMayBeTexted } from '../../messaging/recipients';
import { decideInbound, inboundText, type InboundSettings } from './decide-inbound';
import { NO_MEDIA, settleShare } from './settle-share';
import type { SenderFacts } from './sender-facts';
import { isSimulatorAddress } from '../../messaging/simulator';
import { openWhatsappWindow } from '../../messaging/template-follow-ups';

/**
 * A fast text: an incoming text the worker stores on the fast path, a batch at a time
 * (storeFastTexts), because its outcome needs nothing but its sender's facts (planFastText). This
 * is what it comes to: the updates to store, how the row ends and the reply.
 */
export interface FastText {
  row: MessageRow;
  phone: string;
  userId: number | null;
  status: 'processed' | 'ignored';
  /** The Loop of a text that went to one Loop only (as handleInbound notes it). */
  loopId: number | null;
  /** One update per Loop, with these words. */
  loopIds: number[];
  content: string;
  reply: string | undefined;
}

/**
 * A text whose outcome (decideInbound, the one decision handleInbound applies too) needs no
 * writes but the updates, the row and the reply: it goes to the sender's Loops with no photo or
 * other attachment, or goes nowhere, or is a button tap; not from the Phone Simulator (its viewer
 * narrows the facts). Null for any other text: handleInbound handles it, one at a time.
 */
export function planFastText(row: MessageRow, facts: SenderFacts | undefined, settings: InboundSettings): FastText | null {
  const phone = toE164(row.fromAddress);
  if (!facts || !phone || isSimulatorAddress(row.toAddress)) return null;
  const outcome = decideInbound(inboundText(row, settings), facts);
  const base = { row, phone, userId: facts.user?.id ?? null, loopId: null, loopIds: [], content: '' };
  switch (outcome.kind) {
    case 'button':
      return { ...base, status: 'processed', reply: undefined };
    case 'nowhere':
      return { ...base, status: 'ignored', reply: outcome.reply };
    case 'share': {
      if (outcome.withMedia) return null;
      const settled = settleShare(outcome, NO_MEDIA);
      if (!settled.store) return { ...base, status: settled.status, reply: settled.reply };
      return {
        ...base,
        status: settled.status,
        loopId: outcome.loops.length === 1 ? (outcome.loops[0]?.id ?? null) : null,
        loopIds: outcome.loops.map((l) => l.id),
        content: outcome.content,
        reply: settled.reply,
      };
    }
    default:
      return null;
  }
}

/**
 * Stores a batch of fast texts set-wise, in the caller's transaction (the one that took them,
 * takeInbound): their updates in one INSERT (the Loops' counting trigger runs once, after their
 * rows are locked in id order, so batches and single texts sharing Loops never wait on each
 * other in a circle), the rows marked handled in one UPDATE (counted as an attempt, as a claim
 * counts), the replies in one INSERT. Safe to run again for the same texts: updates are unique
 * per (message, Loop) and replies per message. Rows travel as JSON parameters, so the
 * statements' text never changes.
 */
export async function storeFastTexts(tx: DbOrTx, texts: readonly FastText[]): Promise<void> {
  if (texts.length === 0) return;
  const ordered = [...texts].sort((a, b) => a.row.id - b.row.id);
  const made = ordered.flatMap((t) =>
    t.loopIds.map((loopId) => ({
      loop_id: loopId,
      user_id: t.userId,
      content: t.content,
      message_id: t.row.id,
      created_at: t.row.createdAt.toISOString(),
    })),
  );
  if (made.length > 0) {
    const loopIds = [...new Set(made.map((u) => u.loop_id))].sort((a, b) => a - b);
    await tx.execute(sql`select ${loops.id} from ${loops}
      where ${loops.id} in (select jsonb_array_elements_text(${JSON.stringify(loopIds)}::jsonb)::bigint)
      order by ${loops.id} for no key update`);
    await tx.execute(sql`insert into ${updates} (loop_id, user_id, content, message_id, created_at)
      select u.loop_id, u.user_id, u.content, u.message_id, u.created_at
      from ${recordset('u', { loop_id: 'bigint', user_id: 'bigint', content: 'text', message_id: 'bigint', created_at: 'timestamptz' }, made)}
      order by u.message_id, u.loop_id
      on conflict (message_id, loop_id) do nothing`);
  }
  const outcomes = ordered.map((t) => ({
    id: t.row.id,
    status: t.status,
    user_id: t.userId,
    loop_id: t.loopId,
    shared: t.loopIds.length > 0,
  }));
  await tx.execute(sql`update ${messages} m set status = o.status, user_id = o.user_id, loop_id = o.loop_id, error = null, next_attempt_at = null,
      attempts = m.attempts + 1, media_urls = case when o.shared then '[]'::jsonb else m.media_urls end, updated_at = now()
    from ${recordset('o', { id: 'bigint', status: 'text', user_id: 'bigint', loop_id: 'bigint', shared: 'boolean' }, outcomes)}
    where m.id = o.id`);
  await openWhatsappWindows(tx, ordered);
  await queueReplies(tx, ordered);
}

/**
 * Each member's WhatsApp texts of the batch open the window once (openWhatsappWindow): from the
 * first of them (it brings the whole texts templates cut short, as it would one text at a time)
 * to the last. Members in id order.
 */
async function openWhatsappWindows(tx: DbOrTx, texts: readonly FastText[]): Promise<void> {
  const first = new Map<number, FastText>();
  const last = new Map<number, Date>();
  for (const t of texts) {
    if (t.userId === null || t.row.channel !== 'whatsapp') continue;
    if (!first.has(t.userId)) first.set(t.userId, t);
    last.set(t.userId, t.row.createdAt);
  }
  for (const [userId, t] of [...first].sort(([a], [b]) => a - b)) {
    await openWhatsappWindow(tx, {
      userId,
      phone: t.phone,
      fromAddress: t.row.toAddress,
      at: t.row.createdAt,
      lastAt: last.get(userId) ?? t.row.createdAt,
    });
  }
}

/** The replies, from the number that was texted, except to a phone that opted out meanwhile. */
async function queueReplies(tx: DbOrTx, texts: readonly FastText[]): Promise<void> {
  const answered = texts.filter((t) => t.reply !== undefined);
  if (answered.length === 0) return;
  const phones = JSON.stringify([...new Set(answered.map((t) => t.phone))]);
  const result = await tx.execute(sql`select p.phone from jsonb_array_elements_text(${phones}::jsonb) as p(phone)
    where ${phoneMayBeTexted(sql`p.phone`)}`);
  const textable = new Set((result as { rows: { phone: string }[] }).rows.map((r) => r.phone));
  const rows: OutboundRow[] = answered
    .filter((t) => textable.has(t.phone))
    .map((t) => ({
      channel: textChannel(t.row.channel),
      toAddress: t.phone,
      fromAddress: t.row.toAddress,
      kind: 'reply',
      body: t.reply ?? '',
      createdAt: t.row.createdAt,
      idempotencyKey: `reply:${t.row.id}`,
      userId: t.userId,
      loopId: t.loopId,
      mediaUrls: [],
    }));
  await insertOutboundRows(tx, rows);
}
