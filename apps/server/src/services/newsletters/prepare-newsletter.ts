import { eq } from 'drizzle-orm';
import type { NewsletterKind } from '@loop/shared/newsletters';
import type { DbOrTx } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import type { NewsletterInput, NewsletterWriter, WrittenNewsletter } from '../../publishing/writer';
import { findNewsletterPeriod, type NewsletterPeriod } from './find-newsletter-period';
import { loadNewsletterInput } from './load-newsletter-input';

export interface PreparedNewsletter {
  loop: typeof loops.$inferSelect;
  period: NewsletterPeriod;
  /** What the writer was given. */
  input: NewsletterInput;
  written: WrittenNewsletter;
}

/**
 * Writes, but does not store, the Loop's next newsletter or sneak peek. Null when no updates came
 * in since the last sent newsletter. Runs on the `db` it is given: staff actions pass the database,
 * so the writer's wait on a model holds no lock; the scheduler's sweep passes its transaction, which
 * holds the claim on this one Loop meanwhile (docs/architecture.md#scheduling).
 */
export async function prepareNewsletter(
  db: DbOrTx,
  input: { loopId: number; kind: NewsletterKind; now: Date; writer: NewsletterWriter },
): Promise<PreparedNewsletter | null> {
  const [loop] = await db.select().from(loops).where(eq(loops.id, input.loopId));
  if (!loop) throw new AppError('not_found', 'Loop not found. It may have been deleted.');
  const period = await findNewsletterPeriod(db, loop.id, input.now);
  if (period.updateCount === 0) return null;
  const writerInput = await loadNewsletterInput(db, { loop, kind: input.kind, start: period.start, end: period.end });
  return { loop, period, input: writerInput, written: await input.writer.write(writerInput) };
}
