import type { User } from '@loop/shared/auth';
import type { DbOrTx } from '../../db/client';
import type { users } from '../../db/schema';
import { emailStatusOf } from '../email/email-status';

/** The user as the API shows it: never the password hash; where their address stands (decision 0047). */
export async function toPublicUser(db: DbOrTx, row: typeof users.$inferSelect): Promise<User> {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phoneNumber: row.phoneNumber,
    messagingPreference: row.messagingPreference,
    isPrivileged: row.isStaff,
    timeZone: row.timeZone,
    newsletterDelivery: row.newsletterDelivery,
    emailStatus: await emailStatusOf(db, row),
  };
}
