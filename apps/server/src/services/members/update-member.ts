import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopMember, updateMemberSchema } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../../db/client';
import type { Config } from '../../config';
import { members, undeliverablePhones, users } from '../../db/schema';
import { AppError } from '../../errors';
import { isOptedOut } from '../../messaging/opt-outs';
import { resendInvitation, type Adder } from '../memberships/invite-member';
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
 *
 * A new phone number (same rule) is a new person to ask: the membership is pending again and the
 * invitation goes to the new number, which must say YES. It is how an owner fixes a number the
 * carrier said cannot receive texts (decision 0039): the old number's mark is cleared.
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
    const detailsEditable = user.id !== options.creatorId && user.passwordHash === null && !(await inAnotherLoop(tx, user.id, loopId));

    const personChanges: Partial<
      Pick<
        typeof users.$inferSelect,
        'firstName' | 'lastName' | 'messagingPreference' | 'phoneNumber' | 'lastWhatsappInboundAt' | 'whatsappRefusedAt'
      >
    > = {};
    const newPhone = input.phoneNumber !== undefined && input.phoneNumber !== user.phoneNumber ? input.phoneNumber : undefined;
    if (newPhone !== undefined)
      Object.assign(personChanges, { phoneNumber: newPhone, lastWhatsappInboundAt: null, whatsappRefusedAt: null });
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
    if (newPhone !== undefined) {
      // Checked only once the owner may change the number at all: no answer about others' numbers before.
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.phoneNumber, newPhone));
      if (holder) {
        throw new AppError(
          'conflict',
          'This number can\'t be given to this member. Remove them and add the number with "Add Member" instead.',
        );
      }
    }
    const [updatedUser] =
      Object.keys(personChanges).length > 0 ? await tx.update(users).set(personChanges).where(eq(users.id, user.id)).returning() : [user];
    // The Loop's note and the zone the owner chose are the Loop's own: always editable.
    const memberChanges: Partial<Pick<typeof members.$inferSelect, 'context' | 'timeZone'>> = {};
    if (input.context !== undefined) memberChanges.context = input.context;
    if (input.timeZone !== undefined) memberChanges.timeZone = input.timeZone;
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
