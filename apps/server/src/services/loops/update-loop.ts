import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopSummary, updateLoopSchema } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { getLoopSummary } from './get-loop-summary';

/** Changes a Loop's settings: name, context, vibe, reminder schedule, time zone. */
export async function updateLoop(db: Db, loopId: number, changes: z.output<typeof updateLoopSchema>): Promise<LoopSummary> {
  const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length > 0) {
    await db.update(loops).set(values).where(eq(loops.id, loopId));
  }
  return getLoopSummary(db, loopId);
}
