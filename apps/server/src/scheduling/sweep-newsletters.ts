import { asc, eq, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loops } from '../db/schema';
import type { NewsletterWriter } from '../publishing/writer';
import { publishNewsletter } from '../services/newsletters/publish-newsletter';
import { nextNewsletterSlot } from '../services/schedules/next-newsletter';
import type { SweepHooks } from './sweep-reminders';

export type AutoNewsletters = 'send' | 'draft' | 'off';

export interface NewsletterSweepOptions {
  mode: AutoNewsletters;
  writer: NewsletterWriter;
  publicUrl: string;
  hooks?: SweepHooks;
}

/**
 * Publishes the newsletter of one Loop whose period has ended, and moves the Loop to the end of
 * its next period, in one transaction (the claim on the Loop row makes it exactly once, also
 * across processes). One Loop per transaction: the writer may wait on a model. Paused Loops,
 * `off` and periods without updates publish nothing but still move on. Returns false when no
 * Loop was due.
 */
export async function sweepOneNewsletter(
  db: Db,
  now: Date,
  options: NewsletterSweepOptions,
): Promise<{ claimed: boolean; published: boolean }> {
  return db.transaction(async (tx) => {
    const [loop] = await tx
      .select({ id: loops.id, paused: loops.paused, frequency: loops.frequency, timeZone: loops.timeZone })
      .from(loops)
      .where(lte(loops.nextNewsletterAt, now))
      .orderBy(asc(loops.nextNewsletterAt), asc(loops.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!loop) return { claimed: false, published: false };
    await options.hooks?.afterClaim?.([loop.id]);

    let published = false;
    if (!loop.paused && options.mode !== 'off') {
      const result = await publishNewsletter(tx, {
        loopId: loop.id,
        now,
        writer: options.writer,
        publicUrl: options.publicUrl,
        send: options.mode === 'send',
      });
      published = result.status !== 'empty';
    }
    await tx
      .update(loops)
      .set({ nextNewsletterAt: nextNewsletterSlot(loop.frequency, loop.timeZone, now).at })
      .where(eq(loops.id, loop.id));
    return { claimed: true, published };
  });
}
