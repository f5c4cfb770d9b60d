import { desc, eq, sql } from 'drizzle-orm';
import type { LoopDetail, LoopMember, LoopRole, LoopUpdate } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { media, members, updates, users } from '../../db/schema';
import { mediaUrl } from '../../storage/media-storage';
import { getLoopSummary } from './get-loop-summary';

interface MemberRow {
  id: number | string;
  context: string | null;
  user_id: number | string;
  first_name: string;
  last_name: string;
  phone_number: string;
  email: string | null;
  messaging_preference: LoopMember['user']['messagingPreference'];
}

/** How many updates the Loop page shows, newest first. */
export const DETAIL_UPDATE_LIMIT = 200;

/**
 * A Loop with its members (oldest first; the first `memberLimit` of them when given) and its
 * newest updates with their photos: three queries at once.
 */
export async function getLoopDetail(db: Db, loopId: number, role: LoopRole, options: { memberLimit?: number } = {}): Promise<LoopDetail> {
  const [summary, memberRows, updateRows] = await Promise.all([
    getLoopSummary(db, loopId),
    // A Loop may have a thousand members: plain rows (no per-field mapping by the query builder),
    // and each member's person by primary key. LATERAL with LIMIT keeps that a nested loop;
    // joined plainly, the planner's estimate picks a hash join over every user for a large Loop.
    db.execute(sql`
      select ${members.id} as id, ${members.context} as context, p.id as user_id, p.first_name, p.last_name, p.phone_number, p.email, p.messaging_preference
      from ${members}
      cross join lateral (
        select ${users.id}, ${users.firstName}, ${users.lastName}, ${users.phoneNumber}, ${users.email}, ${users.messagingPreference}
        from ${users} where ${users.id} = ${members.userId} limit 1
      ) p
      where ${members.loopId} = ${loopId}
      order by ${members.createdAt}, ${members.id}
      ${options.memberLimit === undefined ? sql`` : sql`limit ${options.memberLimit}`}`),
    db
      .select({
        id: updates.id,
        userId: updates.userId,
        content: updates.content,
        createdAt: updates.createdAt,
        firstName: users.firstName,
        lastName: users.lastName,
        // Each update's photos in order, in the same query (index media_update_id_idx).
        storageKeys: sql<string[]>`array(select ${media.storageKey} from ${media} where ${media.updateId} = ${updates.id} order by ${media.position}, ${media.id})`,
      })
      .from(updates)
      .innerJoin(users, eq(users.id, updates.userId))
      .where(eq(updates.loopId, loopId))
      .orderBy(desc(updates.createdAt), desc(updates.id))
      .limit(DETAIL_UPDATE_LIMIT),
  ]);

  // node-postgres and PGlite both answer with { rows }; PGlite may give a bigint as a string.
  const memberList: LoopMember[] = (memberRows as unknown as { rows: MemberRow[] }).rows.map((m) => ({
    id: Number(m.id),
    userId: Number(m.user_id),
    context: m.context,
    isCreator: Number(m.user_id) === summary.creatorId,
    user: {
      firstName: m.first_name,
      lastName: m.last_name,
      phoneNumber: m.phone_number,
      email: m.email,
      messagingPreference: m.messaging_preference,
    },
  }));
  const updateList: LoopUpdate[] = updateRows.map((u) => ({
    id: u.id,
    userId: u.userId,
    content: u.content,
    createdAt: u.createdAt.toISOString(),
    mediaUrls: u.storageKeys.map(mediaUrl),
    user: { firstName: u.firstName, lastName: u.lastName },
  }));
  return { ...summary, role, members: memberList, updates: updateList };
}
