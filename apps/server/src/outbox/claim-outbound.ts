import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import type { MessageRow } from '../messaging/context';

export interface ClaimInput {
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/** A value of `messages.channel`: what a channel adapter (outbox/channel.ts) sends. */
export type MessageChannel = MessageRow['channel'];

/**
 * Claims up to `limit` due outbound rows of `channels` for this process (FOR UPDATE SKIP LOCKED:
 * two processes never take the same row) and leases them until `leaseUntil`. A row whose process
 * died is due again when its lease runs out; the claim that takes it back from `sending` sets
 * `in_doubt_since` (the previous attempt may have reached the provider, who is asked before it
 * is sent again: decision 0064). Each claim counts as an attempt.
 *
 * Awaited rows (`messages.priority` 1: codes, answers) are taken first, oldest first, then bulk
 * ones in the room left, never fewer than BULK_SHARE of `limit` while any are due: a stream of
 * awaited messages never starves invitations, reminders or newsletters (decision 0051). One
 * statement, the same for every channel: it knows the channels only by name. Returns the
 * UPDATE, for the caller's RETURNING.
 */
export function claimDue(db: Db, input: ClaimInput, channels: readonly MessageChannel[]) {
  const due = and(
    or(
      and(
        eq(messages.status, 'queued'),
        or(isNull(messages.nextAttemptAt), lte(messages.nextAttemptAt, input.now)),
        // A message waiting out its recipient's quiet hours (decision 0037).
        or(isNull(messages.notBefore), lte(messages.notBefore, input.now)),
      ),
      and(eq(messages.status, 'sending'), lte(messages.nextAttemptAt, input.now)),
    ),
    inArray(messages.channel, [...channels]),
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
    .set({
      status: 'sending',
      attempts: sql`${messages.attempts} + 1`,
      nextAttemptAt: input.leaseUntil,
      // SET reads the row as it was: `sending` here means the last lease ran out with no outcome.
      inDoubtSince: sql`case when ${messages.status} = 'sending' then coalesce(${messages.inDoubtSince}, ${messages.updatedAt}) else ${messages.inDoubtSince} end`,
      updatedAt: sql`now()`,
    })
    .where(and(sql`${messages.id} = any(array(${ids}))`, eq(messages.direction, 'outbound')));
}

/** Of each claim, at least this share (rounded up) is kept for bulk messages while any are due (decision 0051). */
const BULK_SHARE = 0.1;

/** Claimed rows in the order to start them: awaited first, then oldest first. */
export function startOrder<T extends { id: number; priority: number }>(rows: T[]): T[] {
  return rows.sort((a, b) => b.priority - a.priority || a.id - b.id);
}
