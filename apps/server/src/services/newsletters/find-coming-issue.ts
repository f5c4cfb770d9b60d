import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import type { NewsletterRow } from './insert-newsletter';

/** A draft of the Loop's coming issue: a newsletter (not a sneak peek) neither sent nor skipped. */
export const isComingIssue = (loopId: number) =>
  and(eq(newsletters.loopId, loopId), eq(newsletters.kind, 'newsletter'), eq(newsletters.status, 'draft'), isNull(newsletters.skippedAt));

/**
 * The draft of a Loop's coming issue (decision 0040): its scheduled draft (one with a send time)
 * first, else the newest draft made by hand; null when there is none.
 */
export async function findComingIssue(db: DbOrTx, loopId: number): Promise<NewsletterRow | null> {
  const [row] = await db
    .select()
    .from(newsletters)
    .where(isComingIssue(loopId))
    .orderBy(sql`${newsletters.sendAt} is null`, desc(newsletters.createdAt), desc(newsletters.id))
    .limit(1);
  return row ?? null;
}
