import { and, asc, eq, getTableColumns, getTableName, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { messages, users } from '../db/schema';
import type { MessageRow } from './context';
import { personZoneKnown, phoneCountryZones, recipientTimeZone } from './time-zones';

interface ClaimInput {
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/** The phone a text came from, the same for its SMS and WhatsApp texts ("whatsapp:+1..." and "+1..."). */
export function senderOf(fromAddress: string): string {
  return fromAddress.replace(/^whatsapp:/, '');
}

/**
 * Claims due inbound texts a sender at a time (decision 0016): of the first `limit` due texts
 * (oldest first), all those of each sender whose oldest due text this call can lock (FOR UPDATE
 * SKIP LOCKED) and who has no text in another claim's hands (`processing`, lease not run out).
 * So two claims, in one process or two, never hold texts of one sender at the same time, and a
 * sender's texts are claimed in the order they were stored. A concurrent claim that read the
 * same oldest text either finds it locked and skips the sender, or re-reads it once this claim
 * has committed and finds it no longer due. Rows come back oldest first, leased until `leaseUntil`.
 */
export async function claimInbound(db: DbOrTx, input: ClaimInput): Promise<MessageRow[]> {
  const rows = await db
    .update(messages)
    .set({ status: 'processing', attempts: sql`${messages.attempts} + 1`, nextAttemptAt: input.leaseUntil, updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.direction, 'inbound'),
        sql`${messages.id} = any(array(${inboundToClaim(input)}))`,
        dueInbound(getTableName(messages), input.now),
      ),
    )
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Takes due inbound texts as claimInbound does, for the rest of transaction `tx` only: each
 * sender's oldest text stays locked until it ends, which holds the sender as a lease would. The
 * transaction handles the texts or leases them (claimInbound's `processing`) before it commits.
 * Rows come back oldest first, untouched.
 */
export async function takeInbound(tx: DbOrTx, input: Omit<ClaimInput, 'leaseUntil'>): Promise<MessageRow[]> {
  return tx
    .select()
    .from(messages)
    .where(and(sql`${messages.id} = any(array(${inboundToClaim(input)}))`, dueInbound(getTableName(messages), input.now)))
    .orderBy(asc(messages.id));
}

/** Leases texts taken by takeInbound (as claimInbound leases them): for those handled after the transaction. */
export async function leaseInbound(tx: DbOrTx, ids: number[], leaseUntil: Date): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .update(messages)
    .set({ status: 'processing', attempts: sql`${messages.attempts} + 1`, nextAttemptAt: leaseUntil, updatedAt: sql`now()` })
    .where(inArray(messages.id, ids))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * A due inbound text: received (and not waiting for a retry), or processing under a lease that ran
 * out. Never an e-mail row (channel 'email'): inbound e-mail is not a text (decision 0047).
 */
function dueInbound(alias: string, at: Date) {
  const m = sql.raw(alias);
  const now = at.toISOString();
  return sql`(${m}.channel <> 'email' and ((${m}.status = 'received' and (${m}.next_attempt_at is null or ${m}.next_attempt_at <= ${now}::timestamptz))
      or (${m}.status = 'processing' and ${m}.next_attempt_at <= ${now}::timestamptz)))`;
}

/**
 * The ids a claim takes, locking each sender's oldest (see claimInbound). Used as
 * `= any(array(...))`: as `in (...)` PostgreSQL may run the subquery again during an update,
 * and a second run would skip the rows this statement locked (as in claim()).
 */
function inboundToClaim(input: { now: Date; limit: number }) {
  const now = input.now.toISOString();
  const sender = (alias: string) => sql`regexp_replace(${sql.raw(alias)}.from_address, '^whatsapp:', '')`;
  return sql`with candidates as (
      select m.id, ${sender('m')} as sender from ${messages} m
      where m.direction = 'inbound' and ${dueInbound('m', input.now)}
      order by m.id limit ${input.limit}
    ),
    taken as (
      select h.id, ${sender('h')} as sender from ${messages} h
      where h.id in (select min(id) from candidates group by sender) and ${dueInbound('h', input.now)}
        and not exists (
          select 1 from ${messages} busy
          where busy.from_address in (${sender('h')}, 'whatsapp:' || ${sender('h')})
            and busy.direction = 'inbound' and busy.status = 'processing'
            and busy.next_attempt_at > ${now}::timestamptz and busy.id <> h.id)
      for update skip locked
    )
    select c.id from candidates c join taken t on t.sender = c.sender`;
}

/** A claimed outbound text, with what planning it needs to know about its member. */
export type ClaimedText = MessageRow & {
  /** WhatsApp texts only: the member's last WhatsApp text, for the 24-hour window. */
  lastWhatsappInboundAt: Date | null;
  /** The recipient's time zone (decision 0036), for quiet hours; null when nothing is known. */
  recipientTimeZone: string | null;
  /** Every zone of the recipient's phone's country when nothing else places them (decision 0057), else null. */
  recipientCountryZones: readonly string[] | null;
};

/**
 * Claims due outbound texts like `claimMessages`, and reads in the same statement, for WhatsApp,
 * when the member last texted there: planning a claimed text then needs no other query. Whether
 * it may still go out is checked at the moment of sending (sendableTextsQuery), not here.
 */
export async function claimOutbound(db: Db, input: ClaimInput): Promise<ClaimedText[]> {
  const rows = await claim(db, 'outbound', input, 'texts').returning({
    ...getTableColumns(messages),
    lastWhatsappInboundAt:
      sql<Date | null>`case when ${messages.channel} = 'whatsapp' then (select ${users.lastWhatsappInboundAt} from ${users} where ${users.id} = ${messages.userId}) end`.mapWith(
        users.lastWhatsappInboundAt,
      ),
    recipientTimeZone: recipientTimeZone(messages.userId, messages.loopId),
    // Qualified by hand: in this statement's RETURNING drizzle writes bare column names, and
    // `loop_id` inside the subquery would be the membership's.
    recipientZoneKnown: personZoneKnown(sql`${messages}.user_id`, sql`${messages}.loop_id`),
  });
  return startOrder(
    rows.map(({ recipientZoneKnown, ...row }) => ({
      ...row,
      recipientCountryZones: recipientZoneKnown ? null : (phoneCountryZones(row.toAddress)?.zones ?? null),
    })),
  );
}

/**
 * Claims up to `limit` due rows for this process (FOR UPDATE SKIP LOCKED: two processes never
 * take the same row) and leases them until `leaseUntil`. A row whose process died is due again
 * when its lease runs out. Each claim counts as an attempt. Inbound texts are claimed by sender
 * instead (claimInbound).
 *
 * Awaited rows (`messages.priority` 1: codes, answers) are taken first, oldest first, then bulk
 * ones in the room left, never fewer than BULK_SHARE of `limit` while any are due: a stream of
 * awaited texts never starves invitations, reminders or newsletters (decision 0051). One
 * statement, the same for every channel.
 */
function claim(db: Db, direction: 'inbound' | 'outbound', input: ClaimInput, channels: 'texts' | 'email') {
  const [waiting, working] = direction === 'inbound' ? (['received', 'processing'] as const) : (['queued', 'sending'] as const);
  const due = and(
    or(
      and(
        eq(messages.status, waiting),
        or(isNull(messages.nextAttemptAt), lte(messages.nextAttemptAt, input.now)),
        // A text waiting out its recipient's quiet hours (decision 0037).
        or(isNull(messages.notBefore), lte(messages.notBefore, input.now)),
      ),
      and(eq(messages.status, working), lte(messages.nextAttemptAt, input.now)),
    ),
    // E-mail rows are sent by mail/send-emails.ts at their own pace, texts by send-outbound.ts.
    channels === 'email' ? eq(messages.channel, 'email') : ne(messages.channel, 'email'),
  );
  const share = Math.ceil(input.limit * BULK_SHARE);
  const ids = sql`with awaited as (
      select ${messages.id} from ${messages} where ${due} and ${messages.priority} > 0
      order by ${messages.id} limit ${input.limit} for update skip locked
    ),
    bulk as (
      select ${messages.id} from ${messages} where ${due} and ${messages.priority} = 0
      order by ${messages.id} limit greatest(${input.limit} - (select count(*) from awaited), ${share}) for update skip locked
    )
    select id from awaited union all select id from bulk`;
  // `= any(array(subquery))`: the subquery runs once. As `in (subquery)` PostgreSQL may run it
  // again during the update (a semi-join), and each run skips the rows this statement has already
  // updated, so a claim of 10 took 150 rows (seen with two processes on a fresh database).
  return db
    .update(messages)
    .set({ status: working, attempts: sql`${messages.attempts} + 1`, nextAttemptAt: input.leaseUntil, updatedAt: sql`now()` })
    .where(and(sql`${messages.id} = any(array(${ids}))`, eq(messages.direction, direction)));
}

/** Of each claim, at least this share (rounded up) is kept for bulk texts while any are due (decision 0051). */
const BULK_SHARE = 0.1;

/** Claimed rows in the order to start them: awaited first, then oldest first. */
function startOrder<T extends { id: number; priority: number }>(rows: T[]): T[] {
  return rows.sort((a, b) => b.priority - a.priority || a.id - b.id);
}

/** Claims due outbound e-mail rows (channel 'email') like claimOutbound: exactly once across processes. */
export async function claimOutboundEmails(db: Db, input: ClaimInput): Promise<MessageRow[]> {
  return startOrder(await claim(db, 'outbound', input, 'email').returning());
}
