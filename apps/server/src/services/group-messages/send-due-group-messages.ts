import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupMessages } from '../../db/schema';
import { queueGroupMessage } from './queue-group-message';

/** Group messages one scheduler tick sends at the most; the rest wait for the next minute. */
export const GROUP_MESSAGES_PER_TICK = 100;

/**
 * Queues the texts of scheduled group messages whose time has come, oldest first, each in its own
 * transaction with its row claimed FOR UPDATE SKIP LOCKED: two processes never send one twice, and
 * a cancel waits for (or beats) the claim. Returns how many went.
 */
export async function sendDueGroupMessages(db: Db, now: Date): Promise<number> {
  let sent = 0;
  for (; sent < GROUP_MESSAGES_PER_TICK; sent++) {
    const went = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(groupMessages)
        .where(and(eq(groupMessages.status, 'scheduled'), lte(groupMessages.sendAt, now)))
        .orderBy(asc(groupMessages.sendAt), asc(groupMessages.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return false;
      await queueGroupMessage(tx, row, now);
      return true;
    });
    if (!went) break;
  }
  return sent;
}
