import { eq } from 'drizzle-orm';
import { EMAIL_NEEDED_MESSAGE, type MessagingPreference, type NewsletterDelivery } from '@loop/shared/constants';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { members, users } from '../../db/schema';
import { AppError } from '../../errors';
import { requestEmailConfirmation } from '../email/confirm-address';
import { requestEmailChange } from '../email/request-email-change';
import { moveReminderEarlier } from '../schedules/schedule-columns';
import { ownPreference } from '../../messaging/whatsapp-opt-in';

/**
 * Changes what a user may change about themselves without a code: their name (checked as sign-up
 * checks it, by the shared schema), the messaging preference and their time zone. A new email is
 * only asked for: a link goes to it, and it becomes theirs when followed (requestEmailChange), so
 * the answer is the same whoever holds the address.
 */
export async function updateUser(
  db: Db,
  userId: number,
  changes: {
    firstName?: string | undefined;
    lastName?: string | undefined;
    email?: string | undefined;
    messagingPreference?: MessagingPreference | undefined;
    timeZone?: string | null | undefined;
    newsletterDelivery?: NewsletterDelivery | undefined;
  },
  now: Date,
  config: Pick<Config, 'PUBLIC_URL' | 'SESSION_SECRET'>,
): Promise<typeof users.$inferSelect> {
  return db.transaction(async (tx) => {
    // A new address is the account's once its holder follows the link sent to it (decision 0054).
    const { email, ...rest } = changes;
    const changing = email !== undefined && (await requestEmailChange(tx, config, { userId, address: email, now }));
    const { messagingPreference, ...others } = rest;
    // The account's holder choosing WhatsApp is their opt-in to it (decision 0060).
    const values = {
      ...Object.fromEntries(Object.entries(others).filter(([, v]) => v !== undefined)),
      ...(messagingPreference ? ownPreference(messagingPreference, now) : {}),
    };
    const [user] =
      Object.keys(values).length > 0
        ? await tx.update(users).set(values).where(eq(users.id, userId)).returning()
        : await tx.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('not_found', 'This account no longer exists');
    // E-mail delivery needs an address, confirmed by its link once (double opt-in, decision 0047):
    // choosing it, or changing the address while it is chosen, sends the one confirmation e-mail.
    // With a new address on its way, its link confirms it.
    if (user.newsletterDelivery !== 'text' && !changing) {
      if (!user.email) throw new AppError('bad_request', EMAIL_NEEDED_MESSAGE);
      await requestEmailConfirmation(tx, config, { userId, now });
    }
    if (changes.timeZone !== undefined) {
      // Their next reminder in each Loop comes at the schedule's time in the new zone.
      const theirs = await tx.select({ loopId: members.loopId }).from(members).where(eq(members.userId, userId));
      for (const { loopId } of theirs) await moveReminderEarlier(tx, loopId, now);
    }
    return user;
  });
}
