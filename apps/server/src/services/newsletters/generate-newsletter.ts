import { and, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import type { NewsletterWriter } from '../../publishing/writer';
import { openDraft } from './find-upcoming-newsletter';
import { insertNewsletter, type NewsletterRow } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';

/**
 * Writes a draft of the Loop's next newsletter: the updates since its last sent newsletter. A
 * period without updates is refused (409) rather than written as an empty newsletter. When the
 * Loop has a scheduled draft (decision 0040), that draft is written again in place: it keeps its
 * send time and its link, and needs approving again.
 */
export async function generateNewsletter(db: Db, input: { loopId: number; now: Date; writer: NewsletterWriter }): Promise<NewsletterRow> {
  const prepared = await prepareNewsletter(db, { ...input, kind: 'newsletter' });
  if (!prepared) throw nothingToWrite();
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
    })
    .where(and(openDraft(input.loopId), isNotNull(newsletters.sendAt)))
    .returning();
  return rewritten ?? insertNewsletter(db, prepared, { kind: 'newsletter', sentAt: null });
}

export function nothingToWrite(): AppError {
  return new AppError(
    'conflict',
    'There are no new updates since the last newsletter, so there is nothing to write about yet. Updates appear here as members text them in.',
  );
}
