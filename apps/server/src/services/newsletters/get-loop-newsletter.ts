import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import type { NewsletterRow } from './insert-newsletter';

/** One newsletter of one Loop; a newsletter of another Loop is as unknown as a missing one. */
export async function getLoopNewsletter(db: DbOrTx, loopId: number, newsletterId: number): Promise<NewsletterRow> {
  const [row] = await db
    .select()
    .from(newsletters)
    .where(and(eq(newsletters.id, newsletterId), eq(newsletters.loopId, loopId)));
  if (!row) throw newsletterNotFound();
  return row;
}

export function newsletterNotFound(): AppError {
  return new AppError('not_found', 'Newsletter not found in this Loop. It may have been deleted with its Loop.');
}

export function alreadySent(row: Pick<NewsletterRow, 'sentAt' | 'kind'> & Partial<Pick<NewsletterRow, 'skippedAt' | 'status'>>): AppError {
  if (row.skippedAt && row.status !== 'sent') {
    return new AppError('conflict', 'This issue was skipped: it will not be sent. Its updates go into the next newsletter.');
  }
  const what = row.kind === 'sneak_peek' ? 'This sneak peek' : 'This newsletter';
  const when = row.sentAt ? ` on ${row.sentAt.toISOString().slice(0, 10)}` : '';
  return new AppError(
    'conflict',
    `${what} was already sent${when}: it can no longer be changed or sent again. Generate a new one instead.`,
  );
}
