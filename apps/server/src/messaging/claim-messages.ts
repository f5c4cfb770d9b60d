import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import type { MessageRow } from './context';

/**
 * Claims up to `limit` due rows for this process (FOR UPDATE SKIP LOCKED: two processes never
 * take the same row) and leases them until `leaseUntil`. A row whose process died is due again
 * when its lease runs out. Each claim counts as an attempt.
 */
export async function claimMessages(
  db: Db,
  input: { direction: 'inbound' | 'outbound'; now: Date; leaseUntil: Date; limit: number },
): Promise<MessageRow[]> {
  const [waiting, working] = input.direction === 'inbound' ? (['received', 'processing'] as const) : (['queued', 'sending'] as const);
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
  const rows = await db
    .update(messages)
    .set({ status: working, attempts: sql`${messages.attempts} + 1`, nextAttemptAt: input.leaseUntil, updatedAt: sql`now()` })
    .where(and(inArray(messages.id, due), eq(messages.direction, input.direction)))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}
