import type { Db } from '../../db/client';
import { randomToken } from '../../lib/tokens';
import { enqueueLoopTexts } from '../../messaging/outbox';

/**
 * Texts every opted-in member of a Loop through the outbox (staff's "Send Group Message", at
 * POST /api/admin/loops/{id}/bulk-sms: the path keeps the SPEC's name). Each call is its own
 * group message, so its keys carry a fresh random part. Returns how many texts were queued.
 */
export async function sendGroupMessage(db: Db, options: { loopId: number; message: string }): Promise<number> {
  return db.transaction((tx) =>
    enqueueLoopTexts(tx, {
      loopId: options.loopId,
      kind: 'group_message',
      body: options.message,
      keyPrefix: `group_message:${options.loopId}:${randomToken(12)}`,
    }),
  );
}
