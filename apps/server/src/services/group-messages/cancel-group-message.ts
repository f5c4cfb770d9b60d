import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupMessages } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * Cancels a scheduled group message of this Loop before the scheduler sends it. One that went
 * already (or was cancelled) is a 409; one of another Loop, a 404. The scheduler claims with the
 * same row lock, so a message is either cancelled or sent, never both.
 */
export async function cancelGroupMessage(db: Db, loopId: number, messageId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: groupMessages.status })
      .from(groupMessages)
      .where(and(eq(groupMessages.id, messageId), eq(groupMessages.loopId, loopId)))
      .for('update');
    if (!row) throw new AppError('not_found', 'Group message not found.');
    if (row.status !== 'scheduled') {
      throw new AppError(
        'conflict',
        row.status === 'sent' ? 'This group message has been sent already.' : 'This group message was cancelled already.',
      );
    }
    await tx.update(groupMessages).set({ status: 'cancelled' }).where(eq(groupMessages.id, messageId));
  });
}
