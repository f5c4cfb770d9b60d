import { eq, not } from 'drizzle-orm';
import type { Frequency } from '@loop/shared/constants';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { getLoopSummary } from '../loops/get-loop-summary';

/** Pauses an active Loop or resumes a paused one (staff only): paused Loops get no reminders or newsletters. */
export async function toggleLoopPause(db: Db, loopId: number): Promise<LoopSummary> {
  const [row] = await db.update(loops).set({ paused: not(loops.paused) }).where(eq(loops.id, loopId)).returning({ id: loops.id });
  if (!row) throw new AppError('not_found', 'Loop not found.');
  return getLoopSummary(db, loopId);
}

/** Sets how often a Loop's newsletter goes out (staff only). */
export async function setLoopFrequency(db: Db, loopId: number, frequency: Frequency): Promise<LoopSummary> {
  const [row] = await db.update(loops).set({ frequency }).where(eq(loops.id, loopId)).returning({ id: loops.id });
  if (!row) throw new AppError('not_found', 'Loop not found.');
  return getLoopSummary(db, loopId);
}
