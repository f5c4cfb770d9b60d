import type { z } from 'zod';
import { OPTED_OUT_NOTICE, type AddMemberAnswer, type addMemberSchema } from '@loop/shared/loops';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { chooseEmailDelivery } from '../email/choose-email-delivery';
import { readMemberZone } from './member-zone';
import { memberWithPerson, toLoopMember } from './to-loop-member';
import { memberState } from './member-state';
import { openInvitation, type Adder } from './open-invitation';

/**
 * The Loop owner (or staff) adds a member: a pending membership and one invitation text asking
 * for YES. A phone already in the Loop is a 409; a phone that opted out gets nothing, and the
 * answer's notice says so.
 */
export async function addMember(
  db: Db,
  options: {
    loop: { id: number; name: string; creatorId: number };
    adder: Adder;
    input: z.output<typeof addMemberSchema>;
    config: Config;
    now: Date;
  },
): Promise<AddMemberAnswer> {
  const { input } = options;
  return db.transaction(async (tx) => {
    const { newsletterDelivery, ...person } = input;
    const added = await openInvitation(tx, {
      loop: options.loop,
      person,
      context: input.context,
      adder: options.adder,
      viaLink: false,
      config: options.config,
      now: options.now,
    });
    if (!added) throw new AppError('conflict', 'This person is already a member of this Loop.');
    const { member, optedOut } = added;
    let { user } = added;
    if (newsletterDelivery !== 'text' && input.email)
      user = await chooseEmailDelivery(tx, user, input.email, newsletterDelivery, { ...options, addedBy: options.adder });
    return {
      ...memberState(
        { status: member.status, invitedAt: member.invitedAt, invitationWithheld: member.invitationWithheld, optedOut, lastFailure: null },
        options.now,
      ),
      // What the owner typed, whoever holds the phone (decision 0031).
      ...toLoopMember(memberWithPerson(member, user), options.loop.creatorId),
      ...(await readMemberZone(tx, member.id, options.now, false)),
      notice: optedOut ? OPTED_OUT_NOTICE : null,
    };
  });
}
