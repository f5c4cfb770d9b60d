import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import { randomToken } from '../../lib/tokens';
import { enqueueLoopTexts } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';

/**
 * Texts every opted-in member of a Loop through the outbox (staff's "Send Group Message", at
 * POST /api/admin/loops/{id}/bulk-sms: the path keeps the SPEC's name), starting with the Loop's
 * name so members know whose it is. Each call is its own group message, so its keys carry a
 * fresh random part. Returns how many texts were queued.
 */
export async function sendGroupMessage(db: Db, options: { loopId: number; message: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const [loop] = await tx.select({ name: loops.name }).from(loops).where(eq(loops.id, options.loopId));
    if (!loop) throw new AppError('not_found', 'Loop not found.');
    const text = replies.groupMessage(loop.name, options.message);
    return enqueueLoopTexts(tx, {
      loopId: options.loopId,
      kind: 'group_message',
      body: text.body,
      templateVariables: text.templateVariables,
      keyPrefix: `group_message:${options.loopId}:${randomToken(12)}`,
    });
  });
}
