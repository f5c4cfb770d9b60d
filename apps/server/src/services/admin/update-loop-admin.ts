import { eq, not } from 'drizzle-orm';
import type { Frequency } from '@loop/shared/constants';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { getLoopSummary } from '../loops/get-loop-summary';
import { updateLoop } from '../loops/update-loop';

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

/**
 * Sets how often a Loop's newsletter goes out (staff's selector): the owner's Settings change, one
 * way (updateLoop); the next one is at the end of the new period.
 */
export async function setLoopFrequency(db: Db, loopId: number, frequency: Frequency, now: Date): Promise<LoopSummary> {
  const [loop] = await db.select().from(loops).where(eq(loops.id, loopId));
  if (!loop) throw new AppError('not_found', 'Loop not found.');
  return updateLoop(db, loop, { frequency }, now, null);
}
