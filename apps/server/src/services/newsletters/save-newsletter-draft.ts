import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newsletters } from '../../db/schema';
import { alreadySent, getLoopNewsletter } from './get-loop-newsletter';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Replaces a draft's Markdown and marks it edited (a person's words are never written over by the
 * scheduler; decision 0040). A sent newsletter is what members read: it never changes (409).
 */
export async function saveNewsletterDraft(
  db: Db,
  input: { loopId: number; newsletterId: number; content: string },
): Promise<NewsletterRow> {
  const [saved] = await db
    .update(newsletters)
    .set({ content: input.content, editedAt: sql`now()` })
    .where(and(eq(newsletters.id, input.newsletterId), eq(newsletters.loopId, input.loopId), eq(newsletters.status, 'draft')))
    .returning();
  if (saved) return saved;
  // Nothing changed: say why (unknown, or sent meanwhile).
  throw alreadySent(await getLoopNewsletter(db, input.loopId, input.newsletterId));
}
