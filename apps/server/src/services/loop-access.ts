import { and, eq, sql } from 'drizzle-orm';
import type { LoopRole } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../db/client';
import { loops, members } from '../db/schema';
import { AppError } from '../errors';
import { membershipIsActive } from './members/membership-is-active';
import type { SessionUser } from './sessions/find-session-user';

/**
 * The one place that decides who may do what on a Loop (docs/architecture.md#authorization):
 * - owner (its creator): everything on their Loop;
 * - organizer (an active member the owner made a co-organizer, decision 0059): the owner's rights
 *   but deleting the Loop, appointing organizers and handing the Loop over (`requireOwner`);
 * - staff (`isStaff`; `isPrivileged` on the wire): everything on every Loop;
 * - member (an active one: a pending invitation grants nothing yet): sees the Loop, its members and updates, and deletes their own updates;
 * - anyone else: the Loop does not exist for them (404), so its existence is not revealed.
 */
export interface LoopAccess {
  loop: typeof loops.$inferSelect;
  role: LoopRole;
  user: SessionUser;
}

export type LoopAction = 'view' | 'manage' | 'delete-update';

const NOT_FOUND = 'Loop not found. It may have been deleted, or you are not one of its members.';

export async function getLoopAccess(db: DbOrTx | Db, user: SessionUser | null, loopId: number): Promise<LoopAccess> {
  if (!user) throw new AppError('unauthorized', 'Please log in to continue.');
  const [row] = await db
    .select({
      loop: loops,
      isMember: sql<boolean>`exists (select 1 from ${members} where ${and(eq(members.loopId, loops.id), eq(members.userId, user.id), membershipIsActive)})`,
      isOrganizer: sql<boolean>`exists (select 1 from ${members} where ${and(eq(members.loopId, loops.id), eq(members.userId, user.id), membershipIsActive, eq(members.organizer, true))})`,
    })
    .from(loops)
    .where(eq(loops.id, loopId))
    .limit(1);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  const role = roleOf(user, row.loop, Boolean(row.isMember), Boolean(row.isOrganizer));
  if (!role) throw new AppError('not_found', NOT_FOUND);
  return { loop: row.loop, role, user };
}

function roleOf(user: SessionUser, loop: typeof loops.$inferSelect, isMember: boolean, isOrganizer: boolean): LoopRole | null {
  if (loop.creatorId === user.id) return 'owner';
  if (user.isStaff) return 'staff';
  if (isOrganizer) return 'organizer';
  if (isMember) return 'member';
  return null;
}

export function canManage(role: LoopRole): boolean {
  return role === 'owner' || role === 'organizer' || role === 'staff';
}

/** Throws a 403 unless the viewer may change the Loop itself (settings, members, invites, newsletters). */
export function requireManage(access: LoopAccess): void {
  if (!canManage(access.role)) {
    throw new AppError('forbidden', "Only the Loop's creator can do this.");
  }
}

/** Throws a 403 unless the viewer is the owner or staff: deleting the Loop, appointing organizers, handing it over. */
export function requireOwner(access: LoopAccess): void {
  requireManage(access);
  if (access.role === 'organizer') {
    throw new AppError('forbidden', "Only the Loop's owner can do this. Organizers can do everything else.");
  }
}

/** Members delete their own updates; the owner and staff delete any. */
export function canDeleteUpdate(access: LoopAccess, authorId: number): boolean {
  return canManage(access.role) || access.user.id === authorId;
}

/**
 * Whether a viewer sees a person's phone number and e-mail address in a Loop (decision 0054):
 * the owner and staff see everyone's, a member only their own; other members are names.
 */
export function seesContactDetails(role: LoopRole, viewerId: number | undefined, personId: number): boolean {
  return canManage(role) || viewerId === personId;
}
