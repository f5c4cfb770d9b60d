import { MOVE_NEWSLETTER_MAX_DAYS } from '@loop/shared/newsletters';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { changeComingIssue } from './change-coming-issue';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Gives a draft a new send time (decision 0040): later than now and at most
 * MOVE_NEWSLETTER_MAX_DAYS ahead. The approval stands; with review on, a "2 hours left" text goes
 * again before the new time if it is still not approved then.
 */
export async function moveNewsletter(
  db: Db,
  input: { loopId: number; newsletterId: number; sendAt: Date; now: Date },
): Promise<NewsletterRow> {
  if (input.sendAt.getTime() <= input.now.getTime()) {
    throw new AppError('bad_request', 'Pick a send time in the future. To send it right away, use "Send now".');
  }
  if (input.sendAt.getTime() > input.now.getTime() + MOVE_NEWSLETTER_MAX_DAYS * 86_400_000) {
    throw new AppError('bad_request', `Pick a send time within the next ${MOVE_NEWSLETTER_MAX_DAYS} days.`);
  }
  return changeComingIssue(db, { loopId: input.loopId, newsletterId: input.newsletterId, values: { sendAt: input.sendAt } });
}
