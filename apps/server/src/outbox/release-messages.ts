import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';

/**
 * Gives claimed rows back untouched, for a process that is stopping: they are due again at once
 * for any process, and the claim's attempt does not count. Rows handled meanwhile are left alone.
 */
export async function releaseMessages(db: Db, direction: 'inbound' | 'outbound', ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const [waiting, working] = direction === 'inbound' ? (['received', 'processing'] as const) : (['queued', 'sending'] as const);
  await db
    .update(messages)
    .set({ status: waiting, attempts: sql`greatest(${messages.attempts} - 1, 0)`, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(inArray(messages.id, ids), eq(messages.status, working)));
}
