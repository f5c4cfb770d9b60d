import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/** "Press 9": Loop places no more calls to this person's phone (their texts are unchanged), from now on. */
export async function stopCalls(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.update(users).set({ callsOptedOutAt: now }).where(eq(users.id, userId));
}
