import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters } from '../../db/schema';
import { writeFromTemplate } from '../../publishing/template-writer';
import { loadNewsletterInput } from './load-newsletter-input';

/**
 * Delete means gone (decision 0022): every newsletter whose period covered a deleted update, sent
 * ones included, is written again from the updates that remain, by the template writer (a model
 * paraphrase may repeat the deleted words anywhere, so none of it is kept). Runs in the delete's
 * transaction: the public page never shows the update after its delete has committed.
 */
export async function rewriteNewslettersCovering(tx: DbOrTx, input: { loopId: number; at: Date }): Promise<number> {
  const [loop] = await tx.select().from(loops).where(eq(loops.id, input.loopId));
  if (!loop) return 0;
  const affected = await tx
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.loopId, loop.id),
        or(isNull(newsletters.periodStart), lte(newsletters.periodStart, input.at)),
        gt(newsletters.periodEnd, input.at),
      ),
    )
    .for('update');
  for (const newsletter of affected) {
    const writerInput = await loadNewsletterInput(tx, {
      loop,
      kind: newsletter.kind,
      start: newsletter.periodStart ?? new Date(0),
      end: newsletter.periodEnd,
    });
    const written = writeFromTemplate(writerInput);
    await tx
      .update(newsletters)
      .set({ content: written.content, writer: written.writer, fellBack: false })
      .where(eq(newsletters.id, newsletter.id));
  }
  return affected.length;
}
