import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopMember, updateMemberSchema } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../../db/client';
import { members, users } from '../../db/schema';
import { AppError } from '../../errors';
import { isOptedOut } from '../../messaging/opt-outs';
import { memberState } from '../memberships/member-state';
import { moveReminderEarlier } from '../schedules/schedule-columns';
import { readMemberZone } from './member-zone';
import { toLoopMember } from './to-loop-member';

/** Whether the person is a member of any Loop but this one. */
export async function inAnotherLoop(tx: DbOrTx, userId: number, loopId: number): Promise<boolean> {
  const [other] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.userId, userId), ne(members.loopId, loopId)))
    .limit(1);
  return other !== undefined;
}

/**
 * The Loop's owner (or staff) edits a member: the Loop's note about them (context) always; their
 * name and messaging preference only while they have no account of their own and are in no other
 * Loop, since those belong to the person. Sending the values they have already is no change.
 */
export async function updateMember(
  db: Db,
  options: { loopId: number; creatorId: number; memberId: number; input: z.output<typeof updateMemberSchema>; now: Date },
): Promise<LoopMember> {
  const { input } = options;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ member: members, user: users })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.id, options.memberId), eq(members.loopId, options.loopId)))
      .for('update');
    if (!row) throw new AppError('not_found', 'Member not found. They may have been removed already.');
    const { member, user } = row;
    const detailsEditable =
      user.id !== options.creatorId && user.passwordHash === null && !(await inAnotherLoop(tx, user.id, options.loopId));

    const personChanges: Partial<Pick<typeof users.$inferSelect, 'firstName' | 'lastName' | 'messagingPreference'>> = {};
    if (input.firstName !== undefined && input.firstName !== user.firstName) personChanges.firstName = input.firstName;
    if (input.lastName !== undefined && input.lastName !== user.lastName) personChanges.lastName = input.lastName;
    if (input.messagingPreference !== undefined && input.messagingPreference !== user.messagingPreference) {
      personChanges.messagingPreference = input.messagingPreference;
    }
    if (Object.keys(personChanges).length > 0 && !detailsEditable) {
      throw new AppError(
        'forbidden',
        user.passwordHash === null
          ? `${user.firstName} is in other Loops too, so their name and messaging preference stay as they are. You can change their context here.`
          : `${user.firstName} has an account and manages their own name and messaging preference. You can change their context here.`,
      );
    }
    const [updatedUser] =
      Object.keys(personChanges).length > 0 ? await tx.update(users).set(personChanges).where(eq(users.id, user.id)).returning() : [user];
    // The Loop's note and the zone the owner chose are the Loop's own: always editable.
    const memberChanges: Partial<Pick<typeof members.$inferSelect, 'context' | 'timeZone'>> = {};
    if (input.context !== undefined) memberChanges.context = input.context;
    if (input.timeZone !== undefined) memberChanges.timeZone = input.timeZone;
    const [updatedMember] =
      Object.keys(memberChanges).length > 0
        ? await tx.update(members).set(memberChanges).where(eq(members.id, member.id)).returning()
        : [member];
    if (input.timeZone !== undefined && input.timeZone !== member.timeZone) await moveReminderEarlier(tx, member.loopId, options.now);
    if (!updatedUser || !updatedMember) throw new Error('update returned no row');
    const optedOut = await isOptedOut(tx, updatedUser.phoneNumber);
    return {
      // The last delivery error is the Loop detail's to show; an edit does not change it.
      ...memberState(
        {
          status: updatedMember.status,
          invitedAt: updatedMember.invitedAt,
          invitationWithheld: updatedMember.invitationWithheld,
          optedOut,
          lastFailure: null,
        },
        options.now,
      ),
      ...toLoopMember(
        { ...updatedUser, id: updatedMember.id, userId: updatedUser.id, context: updatedMember.context, detailsEditable },
        options.creatorId,
      ),
      ...(await readMemberZone(tx, updatedMember.id, options.now)),
    };
  });
}
