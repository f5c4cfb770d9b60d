import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import { DAY_MS } from '../lib/clock';

/** Rows deleted by one scheduler tick at the most, so a first run on a large table holds no long lock. */
export const OLD_MESSAGES_PER_TICK = 5000;

/**
 * Storage limitation (GDPR Art. 5(1)(e), decision 0058): texts and e-mails in and out, with their
 * words, raw provider parameters and addresses, are kept `days` days. Rows still waiting or in
 * work (queued, sending, received, processing) stay until they are done. Updates made from an
 * inbound text keep their words (the row's link is set to null). Returns how many were deleted.
 */
export async function deleteOldMessages(db: DbOrTx, now: Date, days: number): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const deleted = await db
    .delete(messages)
    .where(
      sql`${messages.id} = any(array(select old.id from ${messages} old
        where old.created_at < ${cutoff}::timestamptz and old.status not in ('queued', 'sending', 'received', 'processing')
        order by old.created_at limit ${OLD_MESSAGES_PER_TICK}))`,
    )
    .returning({ id: messages.id });
  return deleted.length;
}
