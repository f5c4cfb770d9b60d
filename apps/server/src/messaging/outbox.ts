import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { recordset } from '../db/recordset';
import { members, messages, users } from '../db/schema';
import { findRecipients, phoneMayBeTexted } from './recipients';
import { clip, templateVariable, TEXT_MAX_CHARS } from './text-limits';
import { replies } from './replies';
import { textChannelOfUser } from './whatsapp-opt-in';
import { wakeMessageWorker } from './worker-signal';

/** What an outbound text is for; WhatsApp templates are configured per kind. */
export type TextKind =
  | 'reply'
  | 'welcome'
  | 'invitation'
  | 'reminder'
  | 'newsletter'
  | 'newsletter_review'
  | 'sneak_peek'
  | 'group_message'
  | 'code'
  | 'opt_out_notice'
  /** To an account's old phone: its number changed (decision 0052). */
  | 'account_notice';

/**
 * Texts a person is waiting for, right now: a code, an answer to their own text, the confirmation
 * of their STOP, the welcome after their YES. They go before every bulk text (decision 0051).
 */
const AWAITED_KINDS: ReadonlySet<TextKind> = new Set(['code', 'reply', 'opt_out_notice', 'welcome', 'account_notice']);

/** `messages.priority` of a text of this kind: 1 awaited, 0 bulk. */
export function textPriority(kind: TextKind): number {
  return AWAITED_KINDS.has(kind) ? 1 : 0;
}

export interface TextToQueue {
  kind: TextKind;
  userId: number;
  body: string;
  /** One logical text, one key: queueing it again is a no-op. E.g. `newsletter:{id}:{userId}`. */
  idempotencyKey: string;
  loopId?: number;
  newsletterId?: number;
  /** Paths from mediaUrl() or absolute URLs. */
  mediaUrls?: string[];
  /** Values for the WhatsApp template's {{1}}, {{2}}...; default: {{1}} is the body. */
  templateVariables?: Record<string, string>;
}

/**
 * Queues one text to a user, in the caller's transaction: a `messages` row that the message
 * worker sends (the row is the job). The channel follows the user's messagingPreference once they
 * chose WhatsApp themselves (textChannelOfUser, decision 0060); a phone
 * that opted out gets nothing. Returns the row id, or null when nothing was queued (opted out, or
 * the key was queued before).
 */
export async function enqueueText(tx: DbOrTx, text: TextToQueue): Promise<number | null> {
  const [user] = await tx
    .select({ phoneNumber: users.phoneNumber, channel: textChannelOfUser })
    .from(users)
    .where(and(eq(users.id, text.userId), phoneMayBeTexted(users.phoneNumber)));
  if (!user) return null;
  return insertOutbound(tx, {
    channel: user.channel,
    toAddress: user.phoneNumber,
    fromAddress: '',
    kind: text.kind,
    body: text.body,
    idempotencyKey: text.idempotencyKey,
    userId: text.userId,
    loopId: text.loopId ?? null,
    newsletterId: text.newsletterId ?? null,
    mediaUrls: text.mediaUrls ?? [],
    raw: text.templateVariables ? { contentVariables: JSON.stringify(text.templateVariables) } : null,
  });
}

/**
 * The one welcome text of a membership, saying how to send updates; how to share with this Loop
 * only goes to someone in another Loop too (any membership they said yes to, called with this one active).
 */
export async function queueWelcomeText(tx: DbOrTx, input: { userId: number; loopId: number; loopName: string }) {
  const [others] = await tx
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.userId, input.userId), eq(members.status, 'active'), ne(members.loopId, input.loopId)));
  return enqueueText(tx, {
    kind: 'welcome',
    userId: input.userId,
    loopId: input.loopId,
    body: replies.welcome(input.loopName, (others?.n ?? 0) > 0),
    idempotencyKey: `welcome:${input.loopId}:${input.userId}`,
    templateVariables: { '1': templateVariable(input.loopName) },
  });
}

/**
 * Queues one text to every member of a Loop who may be texted (findRecipients: the one rule),
 * set-wise: reminders' counterpart for newsletter links, sneak peeks and group messages. Keys are
 * `{keyPrefix}:{memberId}`, so running it twice for one purpose queues nothing new. Returns how
 * many texts were queued.
 */
export async function enqueueLoopTexts(
  tx: DbOrTx,
  input: {
    loopId: number;
    kind: TextKind;
    body: string;
    keyPrefix: string;
    newsletterId?: number;
    mediaUrls?: string[];
    templateVariables?: Record<string, string>;
    /** Members who get this by e-mail instead (decision 0047): no text. */
    exceptUserIds?: ReadonlySet<number>;
  },
): Promise<number> {
  const except = input.exceptUserIds;
  const recipients = (await findRecipients(tx, [input.loopId])).filter((r) => !except?.has(r.userId));
  const raw = input.templateVariables ? { contentVariables: JSON.stringify(input.templateVariables) } : null;
  return insertOutboundRows(
    tx,
    recipients.map((r) => ({
      channel: r.channel,
      toAddress: r.phoneNumber,
      fromAddress: '',
      kind: input.kind,
      body: input.body,
      idempotencyKey: `${input.keyPrefix}:${r.memberId}`,
      userId: r.userId,
      loopId: r.loopId,
      newsletterId: input.newsletterId ?? null,
      mediaUrls: input.mediaUrls ?? [],
      raw,
    })),
  );
}

/** Rows per INSERT: a reminder burst's texts go in a few statements of one parameter each. */
const ROWS_PER_INSERT = 5000;
/** The types of the fields of an outbound row, as `insertOutboundRows` hands them to PostgreSQL. */
const OUTBOUND_COLUMNS = {
  channel: 'message_channel',
  kind: 'text',
  to_address: 'text',
  from_address: 'text',
  body: 'text',
  media_urls: 'jsonb',
  idempotency_key: 'text',
  loop_id: 'bigint',
  user_id: 'bigint',
  newsletter_id: 'bigint',
  raw: 'jsonb',
  created_at: 'timestamptz',
  priority: 'smallint',
};

/**
 * Inserts queued outbound rows set-wise, skipping keys that exist; returns how many were new.
 * The rows travel as one JSON parameter per statement: the same statement text for 1 row or
 * 5,000, and no per-value work building it (a reminder burst queues 100,000 at once).
 */
export async function insertOutboundRows(tx: DbOrTx, rows: readonly OutboundRow[]): Promise<number> {
  let queued = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = rows.slice(i, i + ROWS_PER_INSERT).map((row) => ({
      channel: row.channel,
      kind: row.kind,
      to_address: row.toAddress,
      from_address: row.fromAddress,
      body: clip(row.body, TEXT_MAX_CHARS),
      media_urls: row.mediaUrls,
      idempotency_key: row.idempotencyKey,
      loop_id: row.loopId,
      user_id: row.userId,
      newsletter_id: row.newsletterId ?? null,
      raw: row.raw ?? null,
      created_at: row.createdAt?.toISOString() ?? null,
      priority: textPriority(row.kind),
    }));
    const inserted = await tx.execute(sql`
      insert into ${messages} (direction, status, channel, kind, to_address, from_address, body, media_urls, idempotency_key, loop_id, user_id, newsletter_id, raw, created_at, priority)
      select 'outbound', 'queued', v.channel, v.kind, v.to_address, v.from_address, v.body, v.media_urls, v.idempotency_key, v.loop_id, v.user_id, v.newsletter_id, v.raw, coalesce(v.created_at, now()), v.priority
      from ${recordset('v', OUTBOUND_COLUMNS, values)}
      on conflict (idempotency_key) do nothing
      returning id`);
    queued += (inserted as { rows: unknown[] }).rows.length;
  }
  if (queued > 0) wakeMessageWorker('outbound');
  return queued;
}

export interface OutboundRow {
  channel: 'sms' | 'whatsapp';
  toAddress: string;
  /** '' lets the sender decide at send time; replies go out from the number that was texted. */
  fromAddress: string;
  kind: TextKind;
  body: string;
  idempotencyKey: string;
  userId: number | null;
  loopId: number | null;
  newsletterId?: number | null;
  mediaUrls: string[];
  raw?: Record<string, string> | null;
  /** Default: now. A reply may carry the time of the text it answers (the once-a-day notices count by it). */
  createdAt?: Date;
}

/** Inserts one queued outbound row unless its key exists. The caller has checked opt-outs. */
export async function insertOutbound(tx: DbOrTx, row: OutboundRow): Promise<number | null> {
  const [inserted] = await tx
    .insert(messages)
    .values({ direction: 'outbound', status: 'queued', ...row, body: clip(row.body, TEXT_MAX_CHARS), priority: textPriority(row.kind) })
    .onConflictDoNothing({ target: messages.idempotencyKey })
    .returning({ id: messages.id });
  if (inserted) wakeMessageWorker('outbound');
  return inserted?.id ?? null;
}
