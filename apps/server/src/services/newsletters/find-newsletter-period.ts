import { and, count, eq, gte, lt, max } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters, updates } from '../../db/schema';
import { AppError } from '../../errors';

export interface NewsletterPeriod {
  /** The end of the Loop's last sent newsletter, or the Loop's creation. Inclusive. */
  start: Date;
  /** Exclusive: the next newsletter starts here once this one is sent. */
  end: Date;
  updateCount: number;
}

/**
 * The updates the Loop's next newsletter covers: everything since its last sent newsletter (sneak
 * peeks do not count: they tease, they do not use updates up). `updateCount` 0 means there is
 * nothing to write about, and the scheduler sends nothing.
 */
export async function findNewsletterPeriod(db: DbOrTx, loopId: number, now: Date): Promise<NewsletterPeriod> {
  const [loop] = await db.select({ createdAt: loops.createdAt }).from(loops).where(eq(loops.id, loopId));
  if (!loop) throw new AppError('not_found', 'Loop not found. It may have been deleted.');
  const [last] = await db
    .select({ end: max(newsletters.periodEnd) })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loopId), eq(newsletters.kind, 'newsletter'), eq(newsletters.status, 'sent')));
  const start = last?.end ?? loop.createdAt;
  const updateCount = await countUpdates(db, loopId, start, now);
  return { start, end: now, updateCount };
}

export async function countUpdates(db: DbOrTx, loopId: number, start: Date, end: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(updates)
    .where(and(eq(updates.loopId, loopId), gte(updates.createdAt, start), lt(updates.createdAt, end)));
  return row?.n ?? 0;
}
