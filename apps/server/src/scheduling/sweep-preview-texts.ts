import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { newsletters } from '../db/schema';
import { textOwnerAboutDraft } from '../services/newsletters/text-owner-about-draft';
import { claimScheduledDrafts, DRAFT_AHEAD_MS, scheduledDraftDueBy, type NewsletterSweepOptions } from './sweep-newsletters';

/**
 * The 24-hour preview text for every draft with a send time, not only the scheduler's own: a draft
 * made with "Generate Draft" and then moved, or a scheduled one moved to a new time, texts the owner
 * and organizers once per send time when that time comes within 24 hours (decision 0040's wording,
 * the same text). The scheduler marks the drafts it texted as it writes them. Claimed with SKIP
 * LOCKED and marked in the same transaction, so once across processes. Returns how many.
 */
export async function sweepPreviewTexts(
  db: Db,
  now: Date,
  options: Pick<NewsletterSweepOptions, 'publicUrl' | 'mode'>,
  limit: number,
): Promise<number> {
  if (options.mode === 'off') return 0;
  return db.transaction(async (tx) => {
    const due = await claimScheduledDrafts(
      tx,
      and(
        scheduledDraftDueBy(new Date(now.getTime() + DRAFT_AHEAD_MS)),
        gt(newsletters.sendAt, now),
        sql`${newsletters.previewTextFor} is distinct from ${newsletters.sendAt}`,
      ),
      limit,
    );
    for (const { newsletter } of due) {
      await textOwnerAboutDraft(tx, { newsletter, step: 'preview', now, publicUrl: options.publicUrl });
      await tx.update(newsletters).set({ previewTextFor: newsletter.sendAt }).where(eq(newsletters.id, newsletter.id));
    }
    return due.length;
  });
}
