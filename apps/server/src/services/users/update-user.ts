import { eq } from 'drizzle-orm';
import { EMAIL_NEEDED_MESSAGE, type MessagingPreference, type NewsletterDelivery } from '@loop/shared/constants';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { members, users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { requestEmailConfirmation } from '../email/confirm-address';
import { moveReminderEarlier } from '../schedules/schedule-columns';
import { freeEmail } from './free-email';

const EMAIL_TAKEN = 'This email is already used by another account. Use another email, or keep your current one.';

/**
 * Changes what a user may change about themselves without a code: their name and email (checked
 * as sign-up checks them, by the shared schema), the messaging preference and their time zone.
 * An email another account uses is a 409 that says so; one an owner typed for a text-only member
 * gives way, as at sign-up.
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
  try {
    return await db.transaction(async (tx) => {
      if (changes.email !== undefined) await freeEmail(tx, changes.email, userId, EMAIL_TAKEN);
      const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const [user] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
      if (!user) throw new AppError('not_found', 'This account no longer exists');
      // E-mail delivery needs an address, confirmed by its link once (double opt-in, decision 0047):
      // choosing it, or changing the address while it is chosen, sends the one confirmation e-mail.
      if (user.newsletterDelivery !== 'text') {
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
  } catch (error) {
    // Two accounts taking one email at once: the unique index decides, and the loser hears the same answer.
    if (uniqueViolation(error) !== null) throw new AppError('conflict', EMAIL_TAKEN);
    throw error;
  }
}
