import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, users } from '../../db/schema';
import { enqueueText } from '../../messaging/outbox';
import { reviewTexts, reviewUrl, sendTimeWords } from '../../publishing/newsletter-texts';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Texts the Loop's owner about a scheduled draft (decision 0040), in the caller's transaction,
 * through the one texting path (opt-outs, quiet hours in their zone): `preview` when the draft is
 * made, `last_call` 2 hours before an unapproved one with review on. Keyed by draft and send time,
 * so a retry or a second process texts nobody twice. Returns whether a text was queued.
 */
export async function textOwnerAboutDraft(
  tx: DbOrTx,
  input: { newsletter: NewsletterRow; step: 'preview' | 'last_call'; now: Date; publicUrl: string },
): Promise<boolean> {
  const { newsletter } = input;
  if (!newsletter.sendAt) return false;
  const [loop] = await tx
    .select({
      id: loops.id,
      name: loops.name,
      review: loops.newsletterReview,
      ownerId: loops.creatorId,
      loopZone: loops.timeZone,
      ownerZone: users.timeZone,
    })
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(eq(loops.id, newsletter.loopId));
  if (!loop) return false;
  const when = sendTimeWords(newsletter.sendAt, input.now, loop.ownerZone ?? loop.loopZone);
  const url = reviewUrl(input.publicUrl, loop.id, newsletter.id);
  const body =
    input.step === 'preview' ? reviewTexts.preview(loop.name, when, url, loop.review) : reviewTexts.lastCall(loop.name, when, url);
  const id = await enqueueText(tx, {
    kind: 'newsletter_review',
    userId: loop.ownerId,
    loopId: loop.id,
    newsletterId: newsletter.id,
    body,
    idempotencyKey: `newsletter_review:${input.step}:${newsletter.id}:${newsletter.sendAt.getTime()}`,
  });
  return id !== null;
}
