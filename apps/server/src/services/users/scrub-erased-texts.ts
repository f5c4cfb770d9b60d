import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { erasureRequests, messages, users } from '../../db/schema';
import { ERASED_ADDRESS } from './delete-account';

/** The code hash of an erasure request that was carried out: its row only waits for the last text. */
export const ERASED_MARK = 'erased';

/**
 * The last text to a person who erased themselves by text ("done, everything is deleted") needs
 * their number to be sent, so the number waits in `erasure_requests` (marked ERASED_MARK) until
 * that text is sent or has failed; then the text's row loses the number and the words like their
 * other texts, and the request row goes (decision 0045). Run by the scheduler's housekeeping every
 * minute, through the messages' index on the address; a number that belongs to someone again
 * (added anew) keeps its texts.
 */
export async function scrubErasedTexts(db: DbOrTx): Promise<void> {
  await db.execute(sql`update ${messages} set to_address = ${ERASED_ADDRESS}, body = '', updated_at = now()
    where ${messages.toAddress} in (select ${erasureRequests.phoneNumber} from ${erasureRequests} where ${erasureRequests.codeHash} = ${ERASED_MARK})
      and ${messages.status} not in ('queued', 'sending')
      and not exists (select 1 from ${users} where ${users.phoneNumber} = ${messages.toAddress})`);
  await db
    .delete(erasureRequests)
    .where(
      and(
        eq(erasureRequests.codeHash, ERASED_MARK),
        sql`not exists (select 1 from ${messages} where ${messages.toAddress} = ${erasureRequests.phoneNumber} and ${messages.status} in ('queued', 'sending'))`,
      ),
    );
}
