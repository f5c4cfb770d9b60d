import { and, eq, gt, max } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { loops, newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import { newsletterTexts, newsletterUrl } from '../../publishing/newsletter-texts';
import { describeUpdates } from '../../publishing/template-writer';
import type { NewsletterWriter } from '../../publishing/writer';
import { countUpdates } from './find-newsletter-period';
import { insertNewsletter } from './insert-newsletter';
import { prepareNewsletter } from './prepare-newsletter';
import { queueNewsletterTexts } from './queue-newsletter-texts';
import type { SentNewsletter } from './send-newsletter';

/**
 * Writes a short teaser of the updates since the last newsletter and texts it to every member, in
 * one action. It is kept in the Loop's history as a sent newsletter of kind sneak_peek, with its
 * own page. A teaser of nothing, or of nothing new since the last teaser, is refused (409): that
 * also keeps a double click from texting everyone twice.
 */
export async function sendSneakPeek(
  db: Db,
  input: { loopId: number; now: Date; writer: NewsletterWriter; publicUrl: string },
): Promise<SentNewsletter> {
  const prepared = await prepareNewsletter(db, { ...input, kind: 'sneak_peek' });
  if (!prepared) {
    throw new AppError(
      'conflict',
      'There are no updates since the last newsletter yet, so there is nothing to tease. Try again once members have texted in.',
    );
  }
  const { loop, period } = prepared;
  return db.transaction(async (tx) => {
    // One sneak peek at a time per Loop: the second of two waits here, then finds nothing new.
    await tx.select({ id: loops.id }).from(loops).where(eq(loops.id, loop.id)).for('update');
    if (!(await hasNewSinceLastPeek(tx, loop.id, period.start, period.end))) {
      throw new AppError('conflict', 'Members already got a sneak peek of these updates. Send another once new updates come in.');
    }
    const row = await insertNewsletter(tx, prepared, { kind: 'sneak_peek', sentAt: input.now });
    const { summary, authors } = describeUpdates(prepared.input.updates);
    const text = newsletterTexts.sneakPeek(loop.name, summary, authors, newsletterUrl(input.publicUrl, row.urlId));
    return { newsletter: row, textsQueued: await queueNewsletterTexts(tx, row, text) };
  });
}

async function hasNewSinceLastPeek(tx: DbOrTx, loopId: number, start: Date, end: Date): Promise<boolean> {
  const [last] = await tx
    .select({ end: max(newsletters.periodEnd) })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loopId), eq(newsletters.kind, 'sneak_peek'), gt(newsletters.periodEnd, start)));
  if (!last?.end) return true;
  return (await countUpdates(tx, loopId, last.end, end)) > 0;
}
