import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { isComingIssue } from './find-coming-issue';
import { alreadySent, getLoopNewsletter } from './get-loop-newsletter';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Changes the draft of a Loop's coming issue (approve, move, skip: decision 0040), conditionally: a draft
 * sent or skipped meanwhile is not changed and the caller gets the 409 that says why.
 */
export async function changeComingIssue(
  db: DbOrTx,
  input: { loopId: number; newsletterId: number; values: Partial<Pick<NewsletterRow, 'sendAt' | 'approvedAt' | 'skippedAt'>> },
): Promise<NewsletterRow> {
  const [row] = await db
    .update(newsletters)
    .set(input.values)
    .where(and(eq(newsletters.id, input.newsletterId), isComingIssue(input.loopId)))
    .returning();
  if (row) return row;
  throw alreadySent(await getLoopNewsletter(db, input.loopId, input.newsletterId));
}
