import type { z } from 'zod';
import type { registerSchema } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { hashPassword } from '../../lib/passwords';

/** Creates an account with a password. Email and phone number must both be new. */
export async function registerUser(
  db: Db,
  input: z.output<typeof registerSchema>,
  options: { adminEmails: readonly string[]; now: Date },
): Promise<typeof users.$inferSelect> {
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db
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
    return user;
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
