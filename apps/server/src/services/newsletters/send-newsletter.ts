import { and, eq, isNull } from 'drizzle-orm';
import { enforceLimits, type Limit } from '../attempts/enforce-limits';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import type { MailLinks } from '../../mail/links';
import { newsletterTexts, newsletterUrl } from '../../publishing/newsletter-texts';
import { alreadySent, getLoopNewsletter } from './get-loop-newsletter';
import type { NewsletterRow } from './insert-newsletter';
import { queueNewsletterToMembers } from './queue-newsletter-to-members';

export const PAUSED_SEND_MESSAGE = 'This loop is paused, so nobody would get the newsletter. Resume the loop in Settings, then send it.';

export interface SentNewsletter {
  newsletter: NewsletterRow;
  textsQueued: number;
}

/**
 * Sends a draft: marks it sent and queues its link to every member, in one transaction. The
 * status change is conditional (draft -> sent, not skipped), so of two sends at once (the owner's
 * "Send now" and the scheduler's send at its time) only one queues texts; the other, and any later
 * one, is a 409.
 */
export async function sendNewsletter(
  db: DbOrTx,
  input: {
    loopId: number;
    newsletterId: number;
    now: Date;
    publicUrl: string;
    mail?: MailLinks | undefined;
    /** An owner's send counts among the Loop's texts to all its members today (decision 0054). */
    limits?: { secret: string; limits: Limit[] } | undefined;
  },
): Promise<SentNewsletter> {
  return db.transaction(async (tx) => {
    // A paused Loop texts nobody (the one rule of who may be texted): sending now would mark the
    // issue sent while no member gets it. The share lock holds the pause still until this commits.
    const [state] = await tx.select({ paused: loops.paused }).from(loops).where(eq(loops.id, input.loopId)).for('share');
    if (state?.paused) throw new AppError('conflict', PAUSED_SEND_MESSAGE);
    const [sent] = await tx
      .update(newsletters)
      .set({ status: 'sent', sentAt: input.now })
      .where(
        and(
          eq(newsletters.id, input.newsletterId),
          eq(newsletters.loopId, input.loopId),
          eq(newsletters.kind, 'newsletter'),
          eq(newsletters.status, 'draft'),
          isNull(newsletters.skippedAt),
        ),
      )
      .returning();
    if (!sent) throw alreadySent(await getLoopNewsletter(tx, input.loopId, input.newsletterId));
    if (input.limits) await enforceLimits(tx, input.limits.secret, input.now, input.limits.limits);
    const [loop] = await tx.select({ name: loops.name }).from(loops).where(eq(loops.id, input.loopId));
    const text = newsletterTexts.newsletter(loop?.name ?? 'Loop', newsletterUrl(input.publicUrl, sent.urlId));
    return { newsletter: sent, textsQueued: await queueNewsletterToMembers(tx, sent, text, input.mail) };
  });
}
