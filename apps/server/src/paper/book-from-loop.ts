import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { loops, newsletters } from '../db/schema';
import { fromLocal } from '../lib/local-time';
import type { MediaStorage } from '../storage/media-storage';
import { issueFromNewsletter } from './issue-from-newsletter';
import type { PaperPhoto } from './paper-issue';
import type { PaperBook } from './render-book-pdf';

/**
 * A Loop's sent newsletters (not sneak peeks) from January of `from` to December of `to`, in its
 * own time zone, as a book (decision 0070). Each issue is read (photos and all) only when the
 * renderer reaches it; `firstPhoto()` then gives the year's first photo for the cover. Null when
 * the Loop does not exist.
 */
export async function bookFromLoop(
  db: DbOrTx,
  storage: MediaStorage,
  publicUrl: string,
  loopId: number,
  years: { from: number; to: number },
) {
  const [loop] = await db.select({ name: loops.name, timeZone: loops.timeZone }).from(loops).where(eq(loops.id, loopId));
  if (!loop) return null;
  const start = fromLocal({ year: years.from, month: 1, day: 1, hour: 0, minute: 0 }, loop.timeZone);
  const end = fromLocal({ year: years.to + 1, month: 1, day: 1, hour: 0, minute: 0 }, loop.timeZone);
  const rows = await db
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.loopId, loopId),
        eq(newsletters.status, 'sent'),
        eq(newsletters.kind, 'newsletter'),
        gte(newsletters.sentAt, start),
        lt(newsletters.sentAt, end),
      ),
    )
    .orderBy(asc(newsletters.sentAt), asc(newsletters.id));
  const shown = { name: loop.name, timeZone: loop.timeZone };
  let first: PaperPhoto | null = null;
  async function* issues() {
    for (const row of rows) {
      const issue = await issueFromNewsletter(db, storage, publicUrl, { newsletter: row, loop: shown });
      first ??= issue.blocks.flatMap((b) => (b.kind === 'photos' ? b.photos : [])).at(0) ?? null;
      yield issue;
    }
  }
  const book: PaperBook = {
    loopName: loop.name,
    span: years.from === years.to ? String(years.from) : `${years.from} – ${years.to}`,
    count: rows.length,
    issues: issues(),
  };
  return { book, firstPhoto: () => first };
}
