import { eq } from 'drizzle-orm';
import type { MessagingPreference } from '@loop/shared/constants';
import type { Db } from '../../db/client';
import { members, users } from '../../db/schema';
import { AppError } from '../../errors';
import { moveReminderEarlier } from '../schedules/schedule-columns';

/** Changes what a user may change about themselves: the messaging preference and their time zone. */
export async function updateUser(
  db: Db,
  userId: number,
  changes: { messagingPreference?: MessagingPreference | undefined; timeZone?: string | null | undefined },
  now: Date,
): Promise<typeof users.$inferSelect> {
  return db.transaction(async (tx) => {
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const [user] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
    if (!user) throw new AppError('not_found', 'This account no longer exists');
    if (changes.timeZone !== undefined) {
      // Their next reminder in each Loop comes at the schedule's time in the new zone.
      const theirs = await tx.select({ loopId: members.loopId }).from(members).where(eq(members.userId, userId));
      for (const { loopId } of theirs) await moveReminderEarlier(tx, loopId, now);
    }
    return user;
  });
}
