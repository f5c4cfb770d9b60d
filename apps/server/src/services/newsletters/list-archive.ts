import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { findPublicNewsletter } from './find-public-newsletter';
import { LOOP_NEWSLETTER_LIMIT } from './list-loop-newsletters';

export interface ArchiveEntry {
  kind: 'newsletter' | 'sneak_peek';
  title: string;
  urlId: string;
  sentAt: Date;
}

/**
 * The past issues of the Loop whose sent newsletter has this urlId, newest first: the archive
 * behind a newsletter's own link (decision 0042). The link is the capability, as for the page
 * itself: an unknown link, a draft's, or any other string is null (a 404), so nothing can be
 * listed without a link a member was texted.
 */
export async function listArchive(
  db: DbOrTx,
  urlId: string,
): Promise<{ loop: { name: string; timeZone: string }; entries: ArchiveEntry[] } | null> {
  const found = await findPublicNewsletter(db, urlId);
  if (!found || found.newsletter.status !== 'sent') return null;
  const rows = await db
    .select({ kind: newsletters.kind, title: newsletters.title, urlId: newsletters.urlId, sentAt: newsletters.sentAt })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, found.newsletter.loopId), eq(newsletters.status, 'sent')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(LOOP_NEWSLETTER_LIMIT);
  return { loop: found.loop, entries: rows.flatMap((row) => (row.sentAt ? [{ ...row, sentAt: row.sentAt }] : [])) };
}
