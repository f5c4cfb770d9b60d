import type { DbOrTx } from '../../db/client';
import { enqueueLoopTexts } from '../../messaging/outbox';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Queues one text per member who may be texted, in the caller's transaction, keyed
 * `{kind}:{newsletterId}:{memberId}`: queueing again (a retry, a second click) texts no one twice.
 * Each member gets it on their own channel; outside WhatsApp's window the template carries
 * `templateVariables` (short, one line) and the link. Returns how many texts were queued.
 */
export async function queueNewsletterTexts(
  tx: DbOrTx,
  newsletter: NewsletterRow,
  text: { body: string; templateVariables: Record<string, string> },
): Promise<number> {
  const kind = newsletter.kind === 'sneak_peek' ? 'sneak_peek' : 'newsletter';
  return enqueueLoopTexts(tx, {
    loopId: newsletter.loopId,
    kind,
    newsletterId: newsletter.id,
    body: text.body,
    keyPrefix: `${kind}:${newsletter.id}`,
    templateVariables: text.templateVariables,
  });
}
