import { sql } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, members } from '../../db/schema';
import { membershipIsActive } from '../members/membership-is-active';
import { selectLoopSummaries } from './loop-summary';

/** The Loops a user belongs to (as creator or a member who said yes), newest first, in one query. */
export function listLoops(db: Db, userId: number): Promise<LoopSummary[]> {
  return selectLoopSummaries(
    db,
    sql`exists (select 1 from ${members} where ${members.loopId} = ${loops.id} and ${members.userId} = ${userId} and ${membershipIsActive})`,
  );
}
