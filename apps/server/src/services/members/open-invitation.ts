import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { AppError } from '../../errors';
import { DAY_MS } from '../../lib/clock';
import { isOptedOut } from '../../messaging/opt-outs';
import { enqueueText } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';
import { textFrequency } from '../../messaging/text-frequency';
import { enforceLimits, waitText } from '../attempts/enforce-limits';
import { findOrCreateMemberUser, type PersonInput } from './find-or-create-member-user';
import { invitationLimits, inviteLinkLimits, memberAddLimits } from './invitation-limits';

/** Whoever adds a member: the signed-in owner or staff, or the account whose invite link was used. */
export interface Adder {
  id: number;
  firstName: string;
  lastName: string;
}

export type MemberRow = typeof members.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export interface InvitationOptions {
  loop: { id: number; name: string };
  person: PersonInput;
  context: string | null;
  adder: Adder;
  /** Added through an invite link (the page anyone holding it can fill in), not by the adder themself. */
  viaLink: boolean;
  /** That link's id: the join counts against the link's own limits, not the adder's (decision 0053). */
  inviteId?: number;
  config: Config;
  now: Date;
}

/**
 * Puts a person, found by phone or created as a text-only user, into a Loop as a pending member and
 * queues the one invitation text that asks for YES. A phone that opted out gets nothing
 * (`optedOut` tells the adder). Returns null when they are in the Loop already. Counts the adder's
 * and the phone's limits (429 when over). Runs in the caller's transaction.
 */
export async function openInvitation(
  tx: DbOrTx,
  options: InvitationOptions,
): Promise<{ member: MemberRow; user: UserRow; optedOut: boolean } | null> {
  const { user } = await findOrCreateMemberUser(tx, options.person, options.now);
  const optedOut = await isOptedOut(tx, user.phoneNumber);
  const [member] = await tx
    .insert(members)
    .values({
      loopId: options.loop.id,
      userId: user.id,
      context: options.context,
      // What the adder typed: all this Loop shows of the person until they said yes (decision 0031).
      firstName: options.person.firstName,
      lastName: options.person.lastName,
      email: options.person.email,
      messagingPreference: options.person.messagingPreference,
      status: 'pending',
      invitedById: options.adder.id,
      invitedAt: options.now,
      // No text goes to a phone that opted out: only a YES naming this Loop confirms it (decision 0033).
      invitationWithheld: optedOut,
      inviteId: options.inviteId ?? null,
      createdAt: options.now,
    })
    .onConflictDoNothing({ target: [members.loopId, members.userId] })
    .returning();
  if (!member) return null;
  await enforceLimits(tx, options.config.SESSION_SECRET, options.now, [
    ...(options.inviteId === undefined
      ? memberAddLimits(options.config, options.adder.id)
      : inviteLinkLimits(options.config, options.inviteId)),
    ...(optedOut ? [] : invitationLimits(options.config, user.phoneNumber, options.loop.id)),
  ]);
  if (!optedOut) await queueInvitation(tx, { ...options, userId: user.id });
  return { member, user, optedOut };
}

/**
 * Sends a pending member's invitation again (owner or staff), at most once a day. An opted-out
 * phone gets nothing and the answer says why.
 */
export async function resendInvitation(
  tx: DbOrTx,
  options: { loop: { id: number; name: string }; memberId: number; adder: Adder; config: Config; now: Date },
): Promise<MemberRow> {
  const [row] = await tx
    .select({ member: members, phoneNumber: users.phoneNumber })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.id, options.memberId), eq(members.loopId, options.loop.id)))
    .for('update', { of: members });
  if (!row) throw new AppError('not_found', 'Member not found. They may have been removed already.');
  if (row.member.status === 'active') throw new AppError('bad_request', 'This member has already joined: there is no invitation to send.');
  if (row.member.status === 'declined') {
    throw new AppError('conflict', 'This person declined the invitation to this Loop, so Loop sends them no more invitations to it.');
  }
  if (await isOptedOut(tx, row.phoneNumber)) {
    throw new AppError('conflict', 'This number has opted out of Loop texts, so no invitation was sent. They can rejoin by texting START.');
  }
  const nextAt = (row.member.invitedAt?.getTime() ?? 0) + DAY_MS;
  if (nextAt > options.now.getTime()) {
    throw new AppError(
      'too_many_requests',
      `An invitation went to this member less than a day ago. You can send it again ${waitText(nextAt - options.now.getTime())}.`,
    );
  }
  await enforceLimits(tx, options.config.SESSION_SECRET, options.now, [
    ...memberAddLimits(options.config, options.adder.id),
    ...invitationLimits(options.config, row.phoneNumber, options.loop.id),
  ]);
  const [updated] = await tx
    .update(members)
    .set({ invitedAt: options.now, invitedById: options.adder.id, invitationWithheld: false })
    .where(eq(members.id, row.member.id))
    .returning();
  if (!updated) throw new Error('update returned no row');
  await queueInvitation(tx, { ...options, viaLink: false, userId: row.member.userId });
  return updated;
}

async function queueInvitation(
  tx: DbOrTx,
  input: { loop: { id: number; name: string }; adder: Adder; viaLink: boolean; userId: number; now: Date },
) {
  const adderName = `${input.adder.firstName} ${input.adder.lastName}`.trim();
  const cadence = await tx
    .select({ reminderSchedule: loops.reminderSchedule, frequency: loops.frequency })
    .from(loops)
    .where(eq(loops.id, input.loop.id));
  const words = { loopName: input.loop.name, adderName, viaLink: input.viaLink, frequency: textFrequency(cadence) };
  return enqueueText(tx, {
    kind: 'invitation',
    userId: input.userId,
    loopId: input.loop.id,
    body: replies.invitation(words),
    idempotencyKey: `invitation:${input.loop.id}:${input.userId}:${input.now.getTime()}`,
    templateVariables: replies.invitationTemplateVariables(words),
  });
}
