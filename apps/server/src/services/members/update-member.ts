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
import { memberWithPerson, showsOwnDetails, shownDetails, toLoopMember, type PersonDetails } from './to-loop-member';

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
 * name and messaging preference as this Loop shows them (decision 0031) while the invitation is
 * pending and for a member without an account, never an account holder's who said yes. A member
 * without an account who is in no other Loop gets the change on their person too, so Loop's
 * texts to them use it. Sending the values they have already is no change.
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
    const current = memberWithPerson(member, user);
    const shown = shownDetails(current);
    const changes: Partial<Pick<PersonDetails, 'firstName' | 'lastName' | 'messagingPreference'>> = {};
    if (input.firstName !== undefined && input.firstName !== shown.firstName) changes.firstName = input.firstName;
    if (input.lastName !== undefined && input.lastName !== shown.lastName) changes.lastName = input.lastName;
    if (input.messagingPreference !== undefined && input.messagingPreference !== shown.messagingPreference) {
      changes.messagingPreference = input.messagingPreference;
    }
    const changed = Object.keys(changes).length > 0;
    if (changed && !toLoopMember(current, options.creatorId).detailsEditable) {
      throw new AppError(
        'forbidden',
        `${shown.firstName} has an account and manages their own name and messaging preference. You can change their context here.`,
      );
    }
    let updatedUser = user;
    if (changed && user.passwordHash === null && !(await inAnotherLoop(tx, user.id, options.loopId))) {
      const [written] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
      if (!written) throw new Error('update returned no row');
      updatedUser = written;
    }
    // The Loop's note and the zone the owner chose are the Loop's own: always editable; so is the
    // Loop's label for them, written whole (a row from before labels were kept starts from what it showed).
    const memberChanges = {
      ...(input.context !== undefined ? { context: input.context } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      ...(changed ? { ...shown, ...changes } : {}),
    };
    const [updatedMember] =
      Object.keys(memberChanges).length > 0
        ? await tx.update(members).set(memberChanges).where(eq(members.id, member.id)).returning()
        : [member];
    if (input.timeZone !== undefined && input.timeZone !== member.timeZone) await moveReminderEarlier(tx, member.loopId, options.now);
    if (!updatedMember) throw new Error('update returned no row');
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
      ...toLoopMember(memberWithPerson(updatedMember, updatedUser), options.creatorId),
      ...(await readMemberZone(tx, updatedMember.id, options.now, showsOwnDetails(memberWithPerson(updatedMember, updatedUser)))),
    };
  });
}
