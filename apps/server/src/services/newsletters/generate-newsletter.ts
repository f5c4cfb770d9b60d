import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { NewsletterWriter } from '../../publishing/writer';
import { insertNewsletter, type NewsletterRow } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';

/**
 * Writes a draft of the Loop's next newsletter: the updates since its last sent newsletter. A
 * period without updates is refused (409) rather than written as an empty newsletter.
 */
export async function generateNewsletter(db: Db, input: { loopId: number; now: Date; writer: NewsletterWriter }): Promise<NewsletterRow> {
  const prepared = await prepareNewsletter(db, { ...input, kind: 'newsletter' });
  if (!prepared) throw nothingToWrite();
  return insertNewsletter(db, prepared, { kind: 'newsletter', sentAt: null });
}

export function nothingToWrite(): AppError {
  return new AppError(
    'conflict',
    'There are no new updates since the last newsletter, so there is nothing to write about yet. Updates appear here as members text them in.',
  );
}
