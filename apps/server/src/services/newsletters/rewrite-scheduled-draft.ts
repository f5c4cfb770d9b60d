import { and, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { isComingIssue } from './find-coming-issue';
import { writtenColumns, type NewsletterRow } from './insert-newsletter';
import type { PreparedNewsletter } from './prepare-newsletter';

/**
 * Writes the Loop's scheduled draft again in place from `prepared`: same send time and link, not
 * approved, not edited. Undefined when the Loop has no scheduled draft open.
 */
export async function rewriteScheduledDraft(db: DbOrTx, loopId: number, prepared: PreparedNewsletter): Promise<NewsletterRow | undefined> {
  const [rewritten] = await db
    .update(newsletters)
    .set({
      ...writtenColumns(prepared),
      approvedAt: null,
      editedAt: null,
    })
    .where(and(isComingIssue(loopId), isNotNull(newsletters.sendAt)))
    .returning();
  return rewritten;
}
