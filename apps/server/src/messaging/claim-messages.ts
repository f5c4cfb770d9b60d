import { and, asc, eq, getTableColumns, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages, users } from '../db/schema';
import type { MessageRow } from './context';

interface ClaimInput {
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/**
 * Claims up to `limit` due rows for this process (FOR UPDATE SKIP LOCKED: two processes never
 * take the same row) and leases them until `leaseUntil`. A row whose process died is due again
 * when its lease runs out. Each claim counts as an attempt.
 */
export async function claimMessages(db: Db, input: ClaimInput & { direction: 'inbound' | 'outbound' }): Promise<MessageRow[]> {
  const rows = await claim(db, input.direction, input).returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** A claimed outbound text, with what planning it needs to know about its member. */
export type ClaimedText = MessageRow & {
  /** WhatsApp texts only: the member's last WhatsApp text, for the 24-hour window. */
  lastWhatsappInboundAt: Date | null;
};

/**
 * Claims due outbound texts like `claimMessages`, and reads in the same statement, for WhatsApp,
 * when the member last texted there: planning a claimed text then needs no other query. Whether
 * it may still go out is checked at the moment of sending (sendableTexts), not here.
 */
export async function claimOutbound(db: Db, input: ClaimInput): Promise<ClaimedText[]> {
  const rows = await claim(db, 'outbound', input).returning({
    ...getTableColumns(messages),
    lastWhatsappInboundAt: sql<Date | null>`case when ${messages.channel} = 'whatsapp' then (select ${users.lastWhatsappInboundAt} from ${users} where ${users.id} = ${messages.userId}) end`.mapWith(
      users.lastWhatsappInboundAt,
    ),
  });
  return rows.sort((a, b) => a.id - b.id);
}

function claim(db: Db, direction: 'inbound' | 'outbound', input: ClaimInput) {
  const [waiting, working] = direction === 'inbound' ? (['received', 'processing'] as const) : (['queued', 'sending'] as const);
  const due = db
    .select({ id: messages.id })
    .from(messages)
    .where(
      or(
        and(eq(messages.status, waiting), or(isNull(messages.nextAttemptAt), lte(messages.nextAttemptAt, input.now))),
        and(eq(messages.status, working), lte(messages.nextAttemptAt, input.now)),
      ),
    )
    .orderBy(asc(messages.id))
    .limit(input.limit)
    .for('update', { skipLocked: true });
  // `= any(array(subquery))`: the subquery runs once. As `in (subquery)` PostgreSQL may run it
  // again during the update (a semi-join), and each run skips the rows this statement has already
  // updated, so a claim of 10 took 150 rows (seen with two processes on a fresh database).
  return db
    .update(messages)
    .set({ status: working, attempts: sql`${messages.attempts} + 1`, nextAttemptAt: input.leaseUntil, updatedAt: sql`now()` })
    .where(and(sql`${messages.id} = any(array(${due}))`, eq(messages.direction, direction)));
}
