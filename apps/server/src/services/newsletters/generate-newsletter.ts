import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { NewsletterWriter } from '../../publishing/writer';
import { insertNewsletter, type NewsletterRow } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';
import { rewriteScheduledDraft } from './rewrite-scheduled-draft';

/**
 * Writes a draft of the Loop's next newsletter: the updates since its last sent newsletter. A
 * period without updates is refused (409) rather than written as an empty newsletter. When the
 * Loop has a scheduled draft (decision 0040), that draft is written again in place: it keeps its
 * send time and its link, and needs approving again.
 */
export async function generateNewsletter(db: Db, input: { loopId: number; now: Date; writer: NewsletterWriter }): Promise<NewsletterRow> {
  const prepared = await prepareNewsletter(db, { ...input, kind: 'newsletter' });
  if (!prepared) throw nothingToWrite();
  const rewritten = await rewriteScheduledDraft(db, input.loopId, prepared);
  return rewritten ?? insertNewsletter(db, prepared, { kind: 'newsletter', sentAt: null });
}

export function nothingToWrite(): AppError {
  return new AppError(
    'conflict',
    'There are no new updates since the last newsletter, so there is nothing to write about yet. Updates appear here as members text them in.',
  );
}
