import { GROUP_MESSAGE_MAX_DAYS_AHEAD } from '@loop/shared/group-messages';
import type { Db } from '../../db/client';
import { groupMessages } from '../../db/schema';
import { AppError } from '../../errors';
import { DAY_MS, MINUTE_MS } from '../../lib/clock';
import { enforceLimits, type Limit } from '../attempts/enforce-limits';
import { queueGroupMessage, type GroupMessageRow } from './queue-group-message';

/**
 * Stores a group message to every member of a Loop (decision 0042) and, unless it is for later,
 * queues its texts in the same transaction. `limits` are counted in that transaction (an owner's;
 * staff pass none), so a refused message counts nothing and parallel requests are counted one by
 * one. A time in the past (more than a minute ago) or too far ahead is a 400.
 */
export async function createGroupMessage(
  db: Db,
  input: {
    loopId: number;
    sender: { id: number; firstName: string };
    message: string;
    sendAt: Date | null;
    now: Date;
    limits: readonly Limit[];
    secret: string;
  },
): Promise<{ row: GroupMessageRow; queued: number }> {
  const { now } = input;
  const later = input.sendAt !== null && input.sendAt.getTime() > now.getTime();
  if (input.sendAt && input.sendAt.getTime() < now.getTime() - MINUTE_MS) {
    throw new AppError('bad_request', 'The send time has passed. Pick a time from now on, or send it now.');
  }
  if (input.sendAt && input.sendAt.getTime() > now.getTime() + GROUP_MESSAGE_MAX_DAYS_AHEAD * DAY_MS) {
    throw new AppError('bad_request', `A group message can be scheduled at most ${GROUP_MESSAGE_MAX_DAYS_AHEAD} days ahead.`);
  }
  return db.transaction(async (tx) => {
    await enforceLimits(tx, input.secret, now, input.limits);
    const [row] = await tx
      .insert(groupMessages)
      .values({
        loopId: input.loopId,
        senderId: input.sender.id,
        senderName: input.sender.firstName,
        message: input.message,
        sendAt: later && input.sendAt ? input.sendAt : now,
      })
      .returning();
    if (!row) throw new Error('group message was not stored');
    if (later) return { row, queued: 0 };
    const sent = await queueGroupMessage(tx, row, now);
    return { row: sent, queued: sent.textsQueued };
  });
}
