import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { members, messages, phoneOptOuts, users } from '../db/schema';
import { membershipIsActive } from '../services/memberships/membership-is-active';
import { isOptedOut } from './opt-outs';
import { replies } from './replies';
import { wakeMessageWorker } from './worker-signal';

/** What an outbound text is for; WhatsApp templates are configured per kind. */
export type TextKind = 'reply' | 'welcome' | 'invitation' | 'reminder' | 'newsletter' | 'sneak_peek' | 'bulk';

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
 * worker sends (the row is the job). The channel follows the user's messagingPreference; a phone
 * that opted out gets nothing. Returns the row id, or null when nothing was queued (opted out, or
 * the key was queued before).
 */
export async function enqueueText(tx: DbOrTx, text: TextToQueue): Promise<number | null> {
  const [user] = await tx
    .select({ phoneNumber: users.phoneNumber, preference: users.messagingPreference })
    .from(users)
    .where(eq(users.id, text.userId));
  if (!user || (await isOptedOut(tx, user.phoneNumber))) return null;
  return insertOutbound(tx, {
    channel: user.preference,
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

/** The one welcome text of a membership, saying how to send updates. */
export function queueWelcomeText(tx: DbOrTx, input: { userId: number; loopId: number; loopName: string }) {
  return enqueueText(tx, {
    kind: 'welcome',
    userId: input.userId,
    loopId: input.loopId,
    body: replies.welcome(input.loopName),
    idempotencyKey: `welcome:${input.loopId}:${input.userId}`,
    templateVariables: { '1': input.loopName },
  });
}

/**
 * Queues one text to every member of a Loop in one statement (reminders, newsletter links, group
 * texts), skipping opted-out phones and memberships not yet confirmed. Keys are `{keyPrefix}:{userId}`, so running it twice for one
 * slot queues nothing new. Returns how many texts were queued.
 */
export async function enqueueLoopTexts(
  tx: DbOrTx,
  input: { loopId: number; kind: TextKind; body: string; keyPrefix: string; newsletterId?: number; mediaUrls?: string[] },
): Promise<number> {
  const result = await tx.execute(sql`
    insert into ${messages} (direction, channel, kind, to_address, from_address, body, media_urls, status, idempotency_key, loop_id, user_id, newsletter_id)
    select 'outbound', ${users.messagingPreference}::text::message_channel, ${input.kind}, ${users.phoneNumber}, '', ${input.body},
           ${JSON.stringify(input.mediaUrls ?? [])}::jsonb, 'queued', ${`${input.keyPrefix}:`} || ${users.id}::text,
           ${members.loopId}, ${users.id}, ${input.newsletterId ?? null}::bigint
    from ${members} join ${users} on ${users.id} = ${members.userId}
    where ${members.loopId} = ${input.loopId} and ${membershipIsActive}
      and not exists (select 1 from ${phoneOptOuts} where ${phoneOptOuts.phoneNumber} = ${users.phoneNumber})
    on conflict (idempotency_key) do nothing
    returning id`);
  // node-postgres and PGlite both answer with { rows }.
  const rows = (result as unknown as { rows: unknown[] }).rows;
  if (rows.length > 0) wakeMessageWorker('outbound');
  return rows.length;
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
}

/** Inserts one queued outbound row unless its key exists. The caller has checked opt-outs. */
export async function insertOutbound(tx: DbOrTx, row: OutboundRow): Promise<number | null> {
  const [inserted] = await tx
    .insert(messages)
    .values({ direction: 'outbound', status: 'queued', ...row })
    .onConflictDoNothing({ target: messages.idempotencyKey })
    .returning({ id: messages.id });
  if (inserted) wakeMessageWorker('outbound');
  return inserted?.id ?? null;
}
