import type { Db } from '../../db/client';
import { changeComingIssue } from './change-coming-issue';
import type { NewsletterRow } from './insert-newsletter';

/**
 * "Withdraw approval": an approved draft waits for the owner again (decision 0040), and with the
 * Loop's review on it does not go at its time until approved again. A draft sent or skipped
 * meanwhile is a 409 that says so.
 */
export function unapproveNewsletter(db: Db, input: { loopId: number; newsletterId: number }): Promise<NewsletterRow> {
  return changeComingIssue(db, { ...input, values: { approvedAt: null } });
}
