import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { LoopDetail, LoopMember, LoopRole, LoopUpdate } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { media, members, updates, users } from '../../db/schema';
import { mediaUrl } from '../../storage/media-storage';
import { getLoopSummary } from './get-loop-summary';

/** How many updates the Loop page shows, newest first. */
export const DETAIL_UPDATE_LIMIT = 200;

/** A Loop with its members (oldest first) and its newest updates with their photos. */
export async function getLoopDetail(db: Db, loopId: number, role: LoopRole): Promise<LoopDetail> {
  const [summary, memberRows, updateRows] = await Promise.all([
    getLoopSummary(db, loopId),
    db
      .select({ member: members, user: users })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(members.loopId, loopId))
      .orderBy(asc(members.createdAt), asc(members.id)),
    db
      .select({ update: updates, firstName: users.firstName, lastName: users.lastName })
      .from(updates)
      .innerJoin(users, eq(users.id, updates.userId))
      .where(eq(updates.loopId, loopId))
      .orderBy(desc(updates.createdAt), desc(updates.id))
      .limit(DETAIL_UPDATE_LIMIT),
  ]);

  const mediaRows = updateRows.length
    ? await db
        .select({ updateId: media.updateId, storageKey: media.storageKey })
        .from(media)
        .where(inArray(media.updateId, updateRows.map((r) => r.update.id)))
        .orderBy(asc(media.updateId), asc(media.position))
    : [];
  const urlsByUpdate = new Map<number, string[]>();
  for (const m of mediaRows) {
    const list = urlsByUpdate.get(m.updateId) ?? [];
    list.push(mediaUrl(m.storageKey));
    urlsByUpdate.set(m.updateId, list);
  }

  const memberList: LoopMember[] = memberRows.map(({ member, user }) => ({
    id: member.id,
    userId: user.id,
    context: member.context,
    isCreator: user.id === summary.creatorId,
    user: {
      firstName: user.firstName,
      lastName: user.lastName,
      phoneNumber: user.phoneNumber,
      email: user.email,
      messagingPreference: user.messagingPreference,
    },
  }));
  const updateList: LoopUpdate[] = updateRows.map(({ update, firstName, lastName }) => ({
    id: update.id,
    userId: update.userId,
    content: update.content,
    createdAt: update.createdAt.toISOString(),
    mediaUrls: urlsByUpdate.get(update.id) ?? [],
    user: { firstName, lastName },
  }));
  return { ...summary, role, members: memberList, updates: updateList };
}
