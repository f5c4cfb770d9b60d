import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopMember, updateMemberSchema } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../../db/client';
import type { Config } from '../../config';
import { members, undeliverablePhones, users } from '../../db/schema';
import { AppError } from '../../errors';
import { isOptedOut } from '../../messaging/opt-outs';
import { resendInvitation, type Adder } from './open-invitation';
import { memberState } from './member-state';
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
 *
 * A new phone number (only for a member without an account in no other Loop) is a new person to
 * ask: the membership is pending again and the invitation goes to the new number, which must say
 * YES. It is how an owner fixes a number the carrier said cannot receive texts (decision 0039):
 * the old number's mark is cleared.
 */
export async function updateMember(
  db: Db,
  options: {
    loop: { id: number; name: string };
    creatorId: number;
    memberId: number;
    input: z.output<typeof updateMemberSchema>;
    adder: Adder;
    config: Config;
    now: Date;
  },
): Promise<LoopMember> {
  const { input } = options;
  const loopId = options.loop.id;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ member: members, user: users })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.id, options.memberId), eq(members.loopId, loopId)))
      .for('update');
    if (!row) throw new AppError('not_found', 'Member not found. They may have been removed already.');
    const { member, user } = row;
    const current = memberWithPerson(member, user);
    const shown = shownDetails(current);
    checkOrganizer(input.organizer, { member, user, creatorId: options.creatorId, firstName: shown.firstName });
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
    const newPhone = input.phoneNumber !== undefined && input.phoneNumber !== user.phoneNumber ? input.phoneNumber : undefined;
    const ownPerson = user.id !== options.creatorId && user.passwordHash === null && !(await inAnotherLoop(tx, user.id, loopId));
    if (newPhone !== undefined) {
      if (!ownPerson) {
        throw new AppError(
          'forbidden',
          `${shown.firstName}'s number can't be changed here. Remove them and add the right number with "Add Member" instead.`,
        );
      }
      // Checked only once the owner may change the number at all: no answer about others' numbers before.
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.phoneNumber, newPhone));
      if (holder) {
        throw new AppError(
          'conflict',
          'This number can\'t be given to this member. Remove them and add the number with "Add Member" instead.',
        );
      }
    }
    let updatedUser = user;
    const personChanges = {
      ...(changed && ownPerson ? changes : {}),
      ...(newPhone !== undefined ? { phoneNumber: newPhone, lastWhatsappInboundAt: null, whatsappRefusedAt: null } : {}),
    };
    if (Object.keys(personChanges).length > 0) {
      const [written] = await tx.update(users).set(personChanges).where(eq(users.id, user.id)).returning();
      if (!written) throw new Error('update returned no row');
      updatedUser = written;
    }
    // The Loop's note and the zone the owner chose are the Loop's own: always editable; so is the
    // Loop's label for them, written whole (a row from before labels were kept starts from what it showed).
    const memberChanges = {
      ...(input.context !== undefined ? { context: input.context } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      ...(input.organizer !== undefined ? { organizer: input.organizer } : {}),
      ...(changed ? { ...shown, ...changes } : {}),
    };
    let [updatedMember] =
      Object.keys(memberChanges).length > 0
        ? await tx.update(members).set(memberChanges).where(eq(members.id, member.id)).returning()
        : [member];
    if (input.timeZone !== undefined && input.timeZone !== member.timeZone) await moveReminderEarlier(tx, member.loopId, options.now);
    if (newPhone !== undefined && updatedMember) {
      await tx.delete(undeliverablePhones).where(eq(undeliverablePhones.phoneNumber, user.phoneNumber));
      // The new number's holder has said nothing yet: pending, and asked (limits and STOP apply).
      await tx.update(members).set({ status: 'pending', invitedAt: null, confirmedAt: null }).where(eq(members.id, member.id));
      updatedMember = await resendInvitation(tx, {
        loop: options.loop,
        memberId: member.id,
        adder: options.adder,
        config: options.config,
        now: options.now,
      });
    }
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

/**
 * A co-organizer (decision 0059) is someone who said yes to this Loop and has an account to sign
 * in with: the rights are used on the website. The owner is the Loop's organizer already.
 */
function checkOrganizer(
  organizer: boolean | undefined,
  who: { member: typeof members.$inferSelect; user: typeof users.$inferSelect; creatorId: number; firstName: string },
): void {
  if (organizer === undefined) return;
  if (who.user.id === who.creatorId) throw new AppError('bad_request', "The Loop's owner runs it already: they are not made an organizer.");
  if (organizer && (who.member.status !== 'active' || who.user.passwordHash === null)) {
    throw new AppError(
      'conflict',
      `${who.firstName} can be made an organizer once they have said yes to this Loop and have an account to sign in with.`,
    );
  }
}
