import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { recordset } from '../db/recordset';
import { emailSuppressions, hashedEmailSuppressions, messages, users } from '../db/schema';
import { wakeMessageWorker } from '../messaging/worker-signal';

/** What an outbound e-mail is for. */
export type EmailKind = 'newsletter' | 'confirm_address' | 'reply_ack';

export interface EmailToQueue {
  kind: EmailKind;
  toAddress: string;
  subject: string;
  text: string;
  html?: string;
  /** One logical e-mail, one key: queueing it again is a no-op. */
  idempotencyKey: string;
  userId?: number;
  loopId?: number;
  newsletterId?: number;
  replyTo?: string;
}

/** What an e-mail row keeps in `messages.raw` (MAIL-CONTRACT: headers is a JSON string of the header map). */
export interface EmailRaw extends Record<string, string> {
  subject: string;
  html: string;
  headers: string;
}

/**
 * SQL: the form in which a deleted person's suppressed address is kept (decision 0050), as
 * hashed_opt_outs keeps a phone (decision 0045): SHA-256 of a fixed prefix and the lower-case
 * address, hex. Unkeyed on purpose, so that it outlives a rotated SESSION_SECRET (a suppression
 * must); an address is guessable from it by trying addresses, so it is kept for the suppression
 * alone (docs/security.md#what-is-kept-after-deletion).
 */
export function suppressionHashSql(address: SQLWrapper): SQL {
  return sql`encode(sha256(convert_to('loop-email-suppression:' || lower(${address}), 'UTF8')), 'hex')`;
}

/**
 * Whether an address may get e-mail of `kind` (decision 0047), as SQL on `address` (lower-case):
 * never a suppressed address (unsubscribed, bounced, complained; kept hashed once its person is
 * deleted); and, except for the one
 * confirmation e-mail and the acknowledgement of a reply the address itself just sent (and that
 * passed the sender checks, decision 0049: an answer, as a text reply answers a text), only an
 * address its holder confirmed by following the link (double opt-in). Checked when queueing
 * (enqueueEmail) and again when sending (send-emails.ts).
 */
export function emailMayBeSent(address: SQL, kind: SQL | EmailKind): SQL {
  return sql`not exists (select 1 from ${emailSuppressions} s where s.address = ${address})
    and not exists (select 1 from ${hashedEmailSuppressions} h where h.address_hash = ${suppressionHashSql(address)})
    and (${kind} = 'confirm_address' or ${kind} = 'reply_ack' or exists (
      select 1 from ${users} u where lower(u.email) = ${address} and u.email_confirmed_address = ${address}))`;
}

/**
 * Queues one e-mail in the caller's transaction: a `messages` row (channel 'email') that the
 * message worker sends (outbox/email/send-emails.ts), exactly once like a text. The From, Message-ID,
 * Date and List-Unsubscribe headers are added when it is sent. Returns the row id, or null when
 * nothing was queued: the address is suppressed or not confirmed, or the key was queued before.
 */
export async function enqueueEmail(tx: DbOrTx, email: EmailToQueue): Promise<number | null> {
  const address = email.toAddress.trim().toLowerCase();
  const headers: Record<string, string> = email.replyTo ? { 'Reply-To': email.replyTo } : {};
  const raw: EmailRaw = { subject: email.subject, html: email.html ?? '', headers: JSON.stringify(headers) };
  const result = await tx.execute(sql`
    insert into ${messages} (direction, status, channel, kind, to_address, from_address, body, idempotency_key, loop_id, user_id, newsletter_id, raw)
    select 'outbound', 'queued', 'email', ${email.kind}, ${address}, '', ${email.text}, ${email.idempotencyKey},
      ${email.loopId ?? null}, ${email.userId ?? null}, ${email.newsletterId ?? null}, ${JSON.stringify(raw)}::jsonb
    where ${emailMayBeSent(sql`${address}::text`, sql`${email.kind}::text`)}
    on conflict (idempotency_key) do nothing
    returning id`);
  const [row] = (result as { rows: { id: number | string }[] }).rows;
  if (!row) return null;
  wakeMessageWorker('email');
  return Number(row.id);
}

/**
 * Queues many e-mails in the caller's transaction with one statement (enqueueEmail's rules, row
 * for row: an address suppressed or not confirmed is skipped, a key queued before is a no-op).
 * The rows travel as one JSON parameter. Returns how many were queued.
 */
export async function enqueueEmails(tx: DbOrTx, emails: readonly EmailToQueue[]): Promise<number> {
  if (emails.length === 0) return 0;
  const values = emails.map((email) => {
    const headers: Record<string, string> = email.replyTo ? { 'Reply-To': email.replyTo } : {};
    const raw: EmailRaw = { subject: email.subject, html: email.html ?? '', headers: JSON.stringify(headers) };
    return {
      kind: email.kind,
      to_address: email.toAddress.trim().toLowerCase(),
      body: email.text,
      idempotency_key: email.idempotencyKey,
      loop_id: email.loopId ?? null,
      user_id: email.userId ?? null,
      newsletter_id: email.newsletterId ?? null,
      raw,
    };
  });
  const columns = {
    kind: 'text',
    to_address: 'text',
    body: 'text',
    idempotency_key: 'text',
    loop_id: 'bigint',
    user_id: 'bigint',
    newsletter_id: 'bigint',
    raw: 'jsonb',
  };
  const result = await tx.execute(sql`
    insert into ${messages} (direction, status, channel, kind, to_address, from_address, body, idempotency_key, loop_id, user_id, newsletter_id, raw)
    select 'outbound', 'queued', 'email', v.kind, v.to_address, '', v.body, v.idempotency_key, v.loop_id, v.user_id, v.newsletter_id, v.raw
    from ${recordset('v', columns, values)}
    where ${emailMayBeSent(sql`v.to_address`, sql`v.kind`)}
    on conflict (idempotency_key) do nothing
    returning id`);
  const queued = (result as { rows: unknown[] }).rows.length;
  if (queued > 0) wakeMessageWorker('email');
  return queued;
}
