import type { NewsletterAudience } from '@loop/shared/newsletters';
import type { DbOrTx } from '../../db/client';
import { findRecipients } from '../../messaging/recipients';
import { findNewsletterEmailRecipients } from './queue-newsletter-emails';

/**
 * Who a newsletter sent now reaches, and how: by text (the one rule, findRecipients, but those who
 * chose e-mail only and can be e-mailed) and by e-mail (queueNewsletterEmails' recipients). First
 * names, for the owner's "Send Now" question.
 */
export async function newsletterAudience(db: DbOrTx, loopId: number): Promise<NewsletterAudience> {
  const emails = await findNewsletterEmailRecipients(db, loopId);
  const emailOnly = new Set(emails.filter((r) => r.delivery === 'email').map((r) => r.userId));
  const texts = (await findRecipients(db, [loopId])).filter((r) => !emailOnly.has(r.userId));
  return { byText: texts.map((r) => r.firstName), byEmail: emails.map((r) => r.firstName) };
}
