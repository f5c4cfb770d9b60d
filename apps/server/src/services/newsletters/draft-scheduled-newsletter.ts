import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import type { NewsletterWriter } from '../../publishing/writer';
import { isComingIssue } from './find-coming-issue';
import { insertNewsletter, type NewsletterRow } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';
import { textOwnerAboutDraft } from './text-owner-about-draft';

export type ScheduledDraftResult = { status: 'empty' } | { status: 'waiting' } | { status: 'drafted'; newsletter: NewsletterRow };

/**
 * For the scheduler, 24 hours before an issue goes (decision 0040): writes its draft with its
 * send time and texts the owner a link to it, in the caller's transaction (which holds the claim
 * on the Loop). Nothing is written when no update came in (`empty`), or when an earlier scheduled
 * draft still waits for the owner (`waiting`: it covers these updates too). An automatic Loop's
 * draft made after its time (the server was down) goes without the preview text.
 */
export async function draftScheduledNewsletter(
  tx: DbOrTx,
  input: { loopId: number; sendAt: Date; now: Date; writer: NewsletterWriter; publicUrl: string; review: boolean },
): Promise<ScheduledDraftResult> {
  const [waiting] = await tx
    .select({ id: newsletters.id })
    .from(newsletters)
    .where(and(isComingIssue(input.loopId), isNotNull(newsletters.sendAt)))
    .limit(1);
  if (waiting) return { status: 'waiting' };
  const prepared = await prepareNewsletter(tx, { loopId: input.loopId, kind: 'newsletter', now: input.now, writer: input.writer });
  if (!prepared) return { status: 'empty' };
  const newsletter = await insertNewsletter(tx, prepared, { kind: 'newsletter', sentAt: null, sendAt: input.sendAt });
  if (input.review || input.sendAt.getTime() > input.now.getTime()) {
    await textOwnerAboutDraft(tx, { newsletter, step: 'preview', now: input.now, publicUrl: input.publicUrl });
  }
  // Its preview is this one (or none, past its time): the preview sweep leaves it be until it is moved.
  const [marked] = await tx.update(newsletters).set({ previewTextFor: input.sendAt }).where(eq(newsletters.id, newsletter.id)).returning();
  return { status: 'drafted', newsletter: marked ?? newsletter };
}
