import type { z } from 'zod';
import type { registerSchema } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { hashPassword } from '../../lib/passwords';
import { confirmPendingMemberships } from '../memberships/confirm-pending-memberships';

/** Creates an account with a password. Email and phone number must both be new. */
export async function registerUser(
  db: Db,
  input: z.output<typeof registerSchema>,
  options: { adminEmails: readonly string[]; now: Date },
): Promise<typeof users.$inferSelect> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: input.phoneNumber,
        messagingPreference: input.messagingPreference,
        isPrivileged: options.adminEmails.includes(input.email),
        createdAt: options.now,
      })
      .returning();
    if (!user) throw new Error('insert returned no row');
    // A holder who proved their phone says yes to the Loops that invited it. Issue 14 moves this
    // call into the verified sign-up (and account claim); it must only run once the code checked out.
    await confirmPendingMemberships(tx, user.phoneNumber, options.now);
    return user;
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'users_email_lower_key') {
      throw new AppError('conflict', 'An account with this email already exists. Log in instead.');
    }
    if (constraint === 'users_phone_number_key') {
      throw new AppError('conflict', 'An account with this phone number already exists.');
    }
    throw error;
  }
}
