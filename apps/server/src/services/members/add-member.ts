import type { z } from 'zod';
import type { addMemberSchema, LoopMember } from '@loop/shared/loops';
import type { Db, DbOrTx } from '../../db/client';
import { members } from '../../db/schema';
import { AppError } from '../../errors';
import { queueWelcomeText } from '../../messaging/outbox';
import { findOrCreateMemberUser, type PersonInput } from './find-or-create-member-user';
import { toLoopMember } from './to-loop-member';
import { inAnotherLoop } from './update-member';

export type MemberRow = typeof members.$inferSelect;

/**
 * Puts a person, found by phone number or created as a text-only user, into a Loop, and queues
 * their one welcome text. Returns null when they are in it already. Runs inside the caller's
 * transaction.
 */
export async function insertMembership(
  tx: DbOrTx,
  options: { loopId: number; loopName: string; person: PersonInput; context: string | null; now: Date },
): Promise<{ member: MemberRow; user: Awaited<ReturnType<typeof findOrCreateMemberUser>>['user'] } | null> {
  const { user } = await findOrCreateMemberUser(tx, options.person, options.now);
  const [member] = await tx
    .insert(members)
    .values({ loopId: options.loopId, userId: user.id, context: options.context, createdAt: options.now })
    .onConflictDoNothing({ target: [members.loopId, members.userId] })
    .returning();
  if (!member) return null;
  await queueWelcomeText(tx, { userId: user.id, loopId: options.loopId, loopName: options.loopName });
  return { member, user };
}

/**
 * The Loop owner (or staff) adds a member. A phone already in the Loop is a 409. The answer shows
 * what the owner typed, never the name or email of an account that has the phone (issue 14 item 7).
 */
export async function addMember(
  db: Db,
  options: { loopId: number; loopName: string; creatorId: number; input: z.output<typeof addMemberSchema>; now: Date },
): Promise<LoopMember> {
  const { input } = options;
  return db.transaction(async (tx) => {
    const added = await insertMembership(tx, {
      loopId: options.loopId,
      loopName: options.loopName,
      person: input,
      context: input.context,
      now: options.now,
    });
    if (!added) throw new AppError('conflict', 'This person is already a member of this Loop.');
    const { member, user } = added;
    const detailsEditable = user.passwordHash === null && !(await inAnotherLoop(tx, user.id, options.loopId));
    // What the owner typed, never the name or email of an account that has the phone.
    return toLoopMember(
      {
        id: member.id,
        userId: user.id,
        context: member.context,
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: input.phoneNumber,
        email: input.email,
        messagingPreference: input.messagingPreference,
        detailsEditable,
      },
      options.creatorId,
    );
  });
}
