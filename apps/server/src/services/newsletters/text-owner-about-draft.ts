import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { membershipIsActive } from '../members/membership-is-active';
import { enqueueText } from '../../messaging/outbox';
import { reviewTexts, reviewUrl, sendTimeWords } from '../../publishing/newsletter-texts';
import type { NewsletterRow } from './insert-newsletter';
import { templateVariable } from '../../messaging/text-limits';

/**
 * Texts the Loop's owner and its co-organizers (decision 0059) about a scheduled draft (decision 0040), in the caller's transaction,
 * through the one texting path (opt-outs, quiet hours in their zone): `preview` when the draft is
 * made, `last_call` 2 hours before an unapproved one with review on. Keyed by draft and send time,
 * so a retry or a second process texts nobody twice. Returns whether a text was queued (to anyone).
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
  const url = reviewUrl(input.publicUrl, loop.id, newsletter.id);
  const sendAtMs = newsletter.sendAt.getTime();
  // The owner's key is as it always was; each co-organizer's (decision 0059) names them.
  const people = [
    { userId: loop.ownerId, zone: loop.ownerZone, key: `newsletter_review:${input.step}:${newsletter.id}:${sendAtMs}` },
    ...(await activeOrganizers(tx, loop.id)).map((o) => ({
      ...o,
      key: `newsletter_review:${input.step}:${newsletter.id}:${sendAtMs}:u${o.userId}`,
    })),
  ];
  let queued = false;
  for (const person of people) {
    const when = sendTimeWords(newsletter.sendAt, input.now, person.zone ?? loop.loopZone);
    const body =
      input.step === 'preview' ? reviewTexts.preview(loop.name, when, url, loop.review) : reviewTexts.lastCall(loop.name, when, url);
    const id = await enqueueText(tx, {
      kind: 'newsletter_review',
      userId: person.userId,
      loopId: loop.id,
      newsletterId: newsletter.id,
      body,
      idempotencyKey: person.key,
      // Outside WhatsApp's window: the template's words around these (whatsapp-templates.ts).
      templateVariables: { '1': templateVariable(loop.name), '2': when, '3': url },
    });
    queued ||= id !== null;
  }
  return queued;
}

/** The Loop's co-organizers who said yes to it: they get the owner's texts about a draft. */
async function activeOrganizers(tx: DbOrTx, loopId: number): Promise<{ userId: number; zone: string | null }[]> {
  return tx
    .select({ userId: members.userId, zone: users.timeZone })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.loopId, loopId), eq(members.organizer, true), membershipIsActive))
    .orderBy(members.id);
}
