import { and, eq, gt, max } from 'drizzle-orm';
import type { SneakPeekPreview } from '@loop/shared/newsletters';
import type { Db, DbOrTx } from '../../db/client';
import { loops, newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import { newToken } from '../../lib/tokens';
import { loopTextCost } from '../../messaging/loop-text-cost';
import { newsletterTexts, newsletterUrl } from '../../publishing/newsletter-texts';
import type { WriterUpdate } from '../../publishing/writer';
import { describeUpdates } from '../../publishing/template-writer';
import type { NewsletterWriter } from '../../publishing/writer';
import { countUpdates, findNewsletterPeriod } from './find-newsletter-period';
import { insertNewsletter } from './insert-newsletter';
import { loadNewsletterInput } from './load-newsletter-input';
import { prepareNewsletter } from './prepare-newsletter';
import { queueNewsletterToMembers } from './queue-newsletter-to-members';
import type { SentNewsletter } from './send-newsletter';

const NOTHING_TO_TEASE =
  'There are no updates since the last newsletter yet, so there is nothing to tease. Try again once members have texted in.';
const ALREADY_TEASED = 'Members already got a sneak peek of these updates. Send another once new updates come in.';

/** The sneak peek's text for these updates, linking to `url`. */
function sneakPeekText(loopName: string, updates: WriterUpdate[], url: string) {
  const { summary, authors } = describeUpdates(updates);
  return newsletterTexts.sneakPeek(loopName, summary, authors, url);
}

/**
 * What "Send Sneak Peek" would text now, to whom, and its cost (decision 0042), without writing or
 * storing anything: the same refusals as sending (409), the text with a stand-in for its link of
 * the link's length, the members the one rule lets Loop text, and members x segments.
 */
export async function previewSneakPeek(db: Db, input: { loopId: number; now: Date; publicUrl: string }): Promise<SneakPeekPreview> {
  const [loop] = await db.select().from(loops).where(eq(loops.id, input.loopId));
  if (!loop) throw new AppError('not_found', 'Loop not found. It may have been deleted.');
  const period = await findNewsletterPeriod(db, loop.id, input.now);
  if (period.updateCount === 0) throw new AppError('conflict', NOTHING_TO_TEASE);
  if (!(await hasNewSinceLastPeek(db, loop.id, period.start, period.end))) throw new AppError('conflict', ALREADY_TEASED);
  const writerInput = await loadNewsletterInput(db, { loop, kind: 'sneak_peek', start: period.start, end: period.end });
  const token = newToken('newsletterUrlId');
  const body = sneakPeekText(loop.name, writerInput.updates, newsletterUrl(input.publicUrl, token)).body;
  const linkPlaceholder = newsletterUrl(input.publicUrl, '-'.repeat(token.length));
  const cost = await loopTextCost(db, loop.id, body);
  return { text: body.replace(newsletterUrl(input.publicUrl, token), linkPlaceholder), linkPlaceholder, ...cost };
}

/**
 * Writes a short teaser of the updates since the last newsletter and texts it to every member, in
 * one action (the staff page asks previewSneakPeek first and confirms). It is kept in the Loop's history as a sent newsletter of kind sneak_peek, with its
 * own page. A teaser of nothing, or of nothing new since the last teaser, is refused (409): that
 * also keeps a double click from texting everyone twice.
 */
export async function sendSneakPeek(
  db: Db,
  input: { loopId: number; now: Date; writer: NewsletterWriter; publicUrl: string },
): Promise<SentNewsletter> {
  const prepared = await prepareNewsletter(db, { ...input, kind: 'sneak_peek' });
  if (!prepared) {
    throw new AppError('conflict', NOTHING_TO_TEASE);
  }
  const { loop, period } = prepared;
  return db.transaction(async (tx) => {
    // One sneak peek at a time per Loop: the second of two waits here, then finds nothing new.
    await tx.select({ id: loops.id }).from(loops).where(eq(loops.id, loop.id)).for('update');
    if (!(await hasNewSinceLastPeek(tx, loop.id, period.start, period.end))) {
      throw new AppError('conflict', ALREADY_TEASED);
    }
    const row = await insertNewsletter(tx, prepared, { kind: 'sneak_peek', sentAt: input.now });
    const text = sneakPeekText(loop.name, prepared.input.updates, newsletterUrl(input.publicUrl, row.urlId));
    return { newsletter: row, textsQueued: await queueNewsletterToMembers(tx, row, text, undefined) };
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
