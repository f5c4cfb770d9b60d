import { and, asc, eq, getTableName, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import type { MessageRow } from './context';

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
