import type { DbOrTx } from '../../db/client';
import type { MailLinks } from '../../mail/links';
import { enqueueLoopTexts } from '../../messaging/outbox';
import type { NewsletterRow } from './insert-newsletter';
import { queueNewsletterEmails } from './queue-newsletter-emails';

/**
 * Queues a newsletter or sneak peek to every member, each on their own channel, in the caller's
 * transaction: the e-mail to those who chose e-mail (queueNewsletterEmails, when `mail` is given),
 * then one text to each member who may be texted and did not choose e-mail only. Texts are keyed
 * `{kind}:{newsletterId}:{memberId}`: queueing again (a retry, a second click) texts no one twice.
 * Outside WhatsApp's window the template carries `templateVariables` (short, one line) and the
 * link. Returns how many texts were queued.
 */
export async function queueNewsletterToMembers(
  tx: DbOrTx,
  newsletter: NewsletterRow,
  text: { body: string; templateVariables: Record<string, string> },
  /** The e-mails' links; without them (sneak peeks, some tests) no e-mail is queued. */
  mail: MailLinks | undefined,
): Promise<number> {
  const kind = newsletter.kind === 'sneak_peek' ? 'sneak_peek' : 'newsletter';
  const { emailOnly } = mail ? await queueNewsletterEmails(tx, newsletter, mail) : { emailOnly: new Set<number>() };
  return enqueueLoopTexts(tx, {
    loopId: newsletter.loopId,
    kind,
    newsletterId: newsletter.id,
    body: text.body,
    keyPrefix: `${kind}:${newsletter.id}`,
    templateVariables: text.templateVariables,
    exceptUserIds: emailOnly,
  });
}
