import type { User } from '@loop/shared/auth';
import type { users } from '../../db/schema';

/** The user as the API shows it: never the password hash. */
export function toPublicUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phoneNumber: row.phoneNumber,
    messagingPreference: row.messagingPreference,
    isPrivileged: row.isPrivileged,
    timeZone: row.timeZone,
  };
}
