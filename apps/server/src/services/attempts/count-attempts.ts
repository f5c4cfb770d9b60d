import { lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { attemptCounts } from '../../db/schema';

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  count: number;
  windowEndsAt: Date;
}

/**
 * Counts one attempt against each key, in one statement, and returns each key's count in its
 * window. A key's window starts at its first attempt and lasts `windowMs`; the first attempt after
 * it ends starts a new one. Every server process counts in the same rows, so N processes allow
 * what one does. Keys are locked in sorted order, so two requests on the same keys never deadlock.
 */
export async function countAttempts(db: DbOrTx, keys: readonly string[], now: Date, windowMs: number): Promise<AttemptCount[]> {
  const unique = [...new Set(keys)].sort();
  if (unique.length === 0) return [];
  const windowEndsAt = new Date(now.getTime() + windowMs);
  const expired = sql`${attemptCounts.windowEndsAt} <= ${now.toISOString()}::timestamptz`;
  const rows = await db
    .insert(attemptCounts)
    .values(unique.map((key) => ({ key, count: 1, windowEndsAt })))
    .onConflictDoUpdate({
      target: attemptCounts.key,
      set: {
        count: sql`case when ${expired} then 1 else ${attemptCounts.count} + 1 end`,
        windowEndsAt: sql`case when ${expired} then excluded.window_ends_at else ${attemptCounts.windowEndsAt} end`,
      },
    })
    .returning();
  const byKey = new Map(rows.map((row) => [row.key, { count: row.count, windowEndsAt: row.windowEndsAt }]));
  return keys.map((key) => byKey.get(key) ?? { count: 1, windowEndsAt });
}

/** Deletes the counts whose window has ended (the scheduler does it every minute). */
export async function deleteExpiredAttempts(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(attemptCounts).where(lte(attemptCounts.windowEndsAt, now));
}
