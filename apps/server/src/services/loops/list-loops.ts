import { sql } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, members } from '../../db/schema';
import { seesContactDetails } from '../loop-access';
import { membershipIsActive } from '../members/membership-is-active';
import { selectLoopSummaries } from './loop-summary';

/**
 * The Loops a user belongs to (as creator or a member who said yes), newest first, in one query;
 * the creator's e-mail address only to the creator and staff (decision 0054).
 */
export async function listLoops(db: Db, viewer: { id: number; isStaff: boolean }): Promise<LoopSummary[]> {
  const summaries = await selectLoopSummaries(
    db,
    sql`exists (select 1 from ${members} where ${members.loopId} = ${loops.id} and ${members.userId} = ${viewer.id} and ${membershipIsActive})`,
  );
  const role = (loop: LoopSummary) => (loop.creatorId === viewer.id ? 'owner' : viewer.isStaff ? 'staff' : 'member');
  return summaries.map((loop) =>
    seesContactDetails(role(loop), viewer.id, loop.creatorId) ? loop : { ...loop, creator: { ...loop.creator, email: null } },
  );
}
