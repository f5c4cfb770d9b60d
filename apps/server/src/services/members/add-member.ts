import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { NewsletterDelivery } from '@loop/shared/constants';
import { OPTED_OUT_NOTICE, type AddMemberAnswer, type addMemberSchema } from '@loop/shared/loops';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { requestEmailConfirmation } from '../email/confirm-address';
import { readMemberZone } from './member-zone';
import { memberWithPerson, toLoopMember } from './to-loop-member';
import { memberState } from '../memberships/member-state';
import { invitePendingMember, type Adder } from '../memberships/invite-member';

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
    const added = await invitePendingMember(tx, {
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
    if (newsletterDelivery !== 'text' && input.email) user = await chooseEmailFor(tx, user, input.email, newsletterDelivery, options);
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

/**
 * The owner chose the newsletter by e-mail for the person (decision 0047). A person without an
 * account takes the typed address (when they have none and no account uses it) and the choice; an
 * account holder's address and choice stay theirs. The address gets one confirmation e-mail ("Alice
 * added you to Smith Family's newsletter: confirm") and nothing more until it is confirmed; the
 * newsletter itself waits for the member's YES as texts do.
 */
async function chooseEmailFor(
  tx: DbOrTx,
  user: typeof users.$inferSelect,
  email: string,
  delivery: NewsletterDelivery,
  options: { loop: { id: number; name: string }; adder: Adder; config: Config; now: Date },
): Promise<typeof users.$inferSelect> {
  if (user.passwordHash !== null) return user;
  const address = email.toLowerCase();
  let current = user;
  if (!user.email) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, address))
      .limit(1);
    if (!taken) [current = user] = await tx.update(users).set({ email: address }).where(eq(users.id, user.id)).returning();
  }
  if (current.email?.toLowerCase() !== address) return current;
  [current = user] = await tx.update(users).set({ newsletterDelivery: delivery }).where(eq(users.id, user.id)).returning();
  await requestEmailConfirmation(tx, options.config, {
    userId: user.id,
    now: options.now,
    addedBy: { name: options.adder.firstName, loopName: options.loop.name, loopId: options.loop.id },
  });
  return current;
}
