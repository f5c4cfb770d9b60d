import { and, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { openDraft } from './find-upcoming-newsletter';
import type { NewsletterRow } from './insert-newsletter';
import type { PreparedNewsletter } from './prepare-newsletter';

/**
 * Writes the Loop's scheduled draft again in place from `prepared`: same send time and link, not
 * approved, not edited. Undefined when the Loop has no scheduled draft open.
 */
export async function rewriteScheduledDraft(db: DbOrTx, loopId: number, prepared: PreparedNewsletter): Promise<NewsletterRow | undefined> {
  const { period, written } = prepared;
  const [rewritten] = await db
    .update(newsletters)
    .set({
      title: written.title,
      content: written.content,
      writer: written.writer,
      fellBack: written.fellBack,
      periodStart: period.start,
      periodEnd: period.end,
      approvedAt: null,
      editedAt: null,
    })
    .where(and(openDraft(loopId), isNotNull(newsletters.sendAt)))
    .returning();
  return rewritten;
}
