import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { groupMessages, loops } from '../../db/schema';
import { enqueueLoopTexts } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';

export type GroupMessageRow = typeof groupMessages.$inferSelect;

/** The text a group message sends, with the Loop's name as it is now. */
export function groupMessageText(loopName: string, row: Pick<GroupMessageRow, 'senderName' | 'message'>) {
  return replies.groupMessage(loopName, row.senderName, row.message);
}

/** The prefix of its texts' idempotency keys: `group_message:g{id}:{memberId}` (older ones had the Loop's id). */
export const groupMessageKeyPrefix = (id: number) => `group_message:g${id}`;

/**
 * Queues a group message's texts to every member who may be texted now but its sender (the one
 * rule, through the outbox; quiet hours are the sender's) and marks it sent, in the caller's transaction. Keys are
 * per group message and member, so queueing it twice texts no one twice. Returns the row as sent.
 */
export async function queueGroupMessage(tx: DbOrTx, row: GroupMessageRow, now: Date): Promise<GroupMessageRow> {
  const [loop] = await tx.select({ name: loops.name }).from(loops).where(eq(loops.id, row.loopId));
  const text = groupMessageText(loop?.name ?? '', row);
  const queued = loop
    ? await enqueueLoopTexts(tx, {
        loopId: row.loopId,
        kind: 'group_message',
        body: text.body,
        templateVariables: text.templateVariables,
        keyPrefix: groupMessageKeyPrefix(row.id),
        // Its sender wrote it: they get no copy.
        ...(row.senderId === null ? {} : { exceptUserIds: new Set([row.senderId]) }),
      })
    : 0;
  const [sent] = await tx
    .update(groupMessages)
    .set({ status: 'sent', sentAt: now, textsQueued: queued })
    .where(eq(groupMessages.id, row.id))
    .returning();
  return sent ?? row;
}
