import { eq, sql } from 'drizzle-orm';
import type { MessagingPreference } from '@loop/shared/constants';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { lookUpPhoneTimeZone } from '../../messaging/time-zones';

export interface PersonInput {
  firstName: string;
  lastName: string;
  email: string | null;
  phoneNumber: string;
  messagingPreference: MessagingPreference;
}

/**
 * The user with this phone number; a new text-only user (no password) when the phone is new.
 * An existing person keeps their own name, email and preference: nobody else can change them.
 * Nothing here tells the caller whether the phone or the email was known: an
 * email that another person already has is simply not stored on the new text-only user.
 */
export async function findOrCreateMemberUser(
  tx: DbOrTx,
  person: PersonInput,
  now: Date,
): Promise<{ user: typeof users.$inferSelect; created: boolean }> {
  const [existing] = await tx.select().from(users).where(eq(users.phoneNumber, person.phoneNumber)).limit(1);
  if (existing) return { user: existing, created: false };

  let email = person.email;
  if (email) {
    const [emailOwner] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email))
      .limit(1);
    if (emailOwner) email = null;
  }
  try {
    const [user] = await tx
      .insert(users)
      .values({ ...person, email, passwordHash: null, phoneTimeZone: await lookUpPhoneTimeZone(person.phoneNumber), createdAt: now })
      .returning();
    if (!user) throw new Error('insert returned no row');
    return { user, created: true };
  } catch (error) {
    if (uniqueViolation(error) !== null) {
      throw new AppError('conflict', 'This member could not be added just now. Please try again.');
    }
    throw error;
  }
}
