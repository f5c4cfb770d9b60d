import type { DbOrTx } from '../../db/client';
import type { MailLinks } from '../../mail/links';
import { newsletterTexts, newsletterUrl } from '../../publishing/newsletter-texts';
import type { NewsletterWriter } from '../../publishing/writer';
import { insertNewsletter, type NewsletterRow } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';
import { queueNewsletterToMembers } from './queue-newsletter-to-members';

export type PublishResult =
  { status: 'empty' } | { status: 'draft'; newsletter: NewsletterRow } | { status: 'sent'; newsletter: NewsletterRow; textsQueued: number };

/**
 * For the demo (`npm run demo`), tests and benches, not the scheduler (which drafts each issue for
 * the owner's review: draftScheduledNewsletter, then sendNewsletter): writes the Loop's newsletter
 * for the period ending `now` and, with `send`, stores it as sent at once and queues it to every
 * member (texts and e-mails) in one transaction. A period with no updates writes and
 * sends nothing ({status: 'empty'}), so the caller can simply move the Loop's next date on. The
 * caller makes sure one Loop is published once per slot (its claim on the Loop row).
 */
export async function publishNewsletter(
  db: DbOrTx,
  input: {
    loopId: number;
    now: Date;
    writer: NewsletterWriter;
    publicUrl: string;
    /** The e-mails' links; without them no e-mail is queued. */
    mail?: MailLinks | undefined;
    send: boolean;
  },
): Promise<PublishResult> {
  const prepared = await prepareNewsletter(db, { loopId: input.loopId, kind: 'newsletter', now: input.now, writer: input.writer });
  if (!prepared) return { status: 'empty' };
  if (!input.send) return { status: 'draft', newsletter: await insertNewsletter(db, prepared, { kind: 'newsletter', sentAt: null }) };
  return db.transaction(async (tx) => {
    const newsletter = await insertNewsletter(tx, prepared, { kind: 'newsletter', sentAt: input.now });
    const text = newsletterTexts.newsletter(prepared.loop.name, newsletterUrl(input.publicUrl, newsletter.urlId));
    return { status: 'sent', newsletter, textsQueued: await queueNewsletterToMembers(tx, newsletter, text, input.mail) };
  });
}
