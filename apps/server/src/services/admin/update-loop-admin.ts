import { eq, not } from 'drizzle-orm';
import type { Frequency } from '@loop/shared/constants';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { nextNewsletterAt } from '../schedules/schedule-columns';
import { getLoopSummary } from '../loops/get-loop-summary';

/** Pauses an active Loop or resumes a paused one (staff only): paused Loops get no reminders or newsletters. */
export async function toggleLoopPause(db: Db, loopId: number): Promise<LoopSummary> {
  const [row] = await db
    .update(loops)
    .set({ paused: not(loops.paused) })
    .where(eq(loops.id, loopId))
    .returning({ id: loops.id });
  if (!row) throw new AppError('not_found', 'Loop not found.');
  return getLoopSummary(db, loopId);
}

/** Sets how often a Loop's newsletter goes out (staff only); the next one is at the end of the new period. */
export async function setLoopFrequency(db: Db, loopId: number, frequency: Frequency, now: Date): Promise<LoopSummary> {
  await db.transaction(async (tx) => {
    const [loop] = await tx.select({ timeZone: loops.timeZone }).from(loops).where(eq(loops.id, loopId)).for('update');
    if (!loop) throw new AppError('not_found', 'Loop not found.');
    await tx
      .update(loops)
      .set({ frequency, nextNewsletterAt: nextNewsletterAt({ frequency, timeZone: loop.timeZone }, now) })
      .where(eq(loops.id, loopId));
  });
  return getLoopSummary(db, loopId);
}
