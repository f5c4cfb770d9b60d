import { eq } from 'drizzle-orm';
import type { MessagingPreference } from '@loop/shared/constants';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';

/** Changes what a user may change about themselves: today, the messaging preference. */
export async function updateUser(
  db: Db,
  userId: number,
  changes: { messagingPreference: MessagingPreference },
): Promise<typeof users.$inferSelect> {
  const [user] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
  if (!user) throw new AppError('not_found', 'This account no longer exists');
  return user;
}
