import { eq } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { selectLoopSummaries } from './loop-summary';

export async function getLoopSummary(db: DbOrTx, loopId: number): Promise<LoopSummary> {
  const [summary] = await selectLoopSummaries(db, eq(loops.id, loopId));
  if (!summary) throw new AppError('not_found', 'Loop not found.');
  return summary;
}
