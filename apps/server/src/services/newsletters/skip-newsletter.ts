import type { Db } from '../../db/client';
import { changeComingIssue } from './change-coming-issue';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Skips this issue (decision 0040): the draft is kept, marked skipped, and never sent; its updates
 * go into the next newsletter (a period starts at the last sent one).
 */
export async function skipNewsletter(db: Db, input: { loopId: number; newsletterId: number; now: Date }): Promise<NewsletterRow> {
  return changeComingIssue(db, { loopId: input.loopId, newsletterId: input.newsletterId, values: { skippedAt: input.now } });
}
