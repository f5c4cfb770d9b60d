import { eq } from 'drizzle-orm';
import type { TextCost } from '@loop/shared/group-messages';
import type { DbOrTx } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { loopTextCost } from '../../messaging/loop-text-cost';
import { groupMessageText } from './queue-group-message';

/**
 * The exact text a group message from `senderName` would send now, who it reaches (never its
 * sender: they wrote it), and what it costs.
 */
export async function previewGroupMessage(
  db: DbOrTx,
  input: { loopId: number; senderId: number; senderName: string; message: string },
): Promise<TextCost> {
  const [loop] = await db.select({ name: loops.name }).from(loops).where(eq(loops.id, input.loopId));
  if (!loop) throw new AppError('not_found', 'Loop not found.');
  const { body } = groupMessageText(loop.name, { senderName: input.senderName, message: input.message });
  return { text: body, ...(await loopTextCost(db, input.loopId, body, { exceptUserIds: new Set([input.senderId]) })) };
}
