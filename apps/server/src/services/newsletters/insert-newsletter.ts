import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';
import { newToken } from '../../lib/tokens';
import type { PreparedNewsletter } from './prepare-newsletter';

export type NewsletterRow = typeof newsletters.$inferSelect;

/** The columns a written newsletter fills: what the writer wrote and the period it covers. */
export function writtenColumns({ period, written }: PreparedNewsletter) {
  return {
    title: written.title,
    content: written.content,
    writer: written.writer,
    fellBack: written.fellBack,
    periodStart: period.start,
    periodEnd: period.end,
  };
}

/** Stores a written newsletter under a new unguessable urlId (256 random bits). */
export async function insertNewsletter(
  tx: DbOrTx,
  prepared: PreparedNewsletter,
  input: { kind: NewsletterRow['kind']; sentAt: Date | null; sendAt?: Date },
): Promise<NewsletterRow> {
  const { loop, period } = prepared;
  const [row] = await tx
    .insert(newsletters)
    .values({
      loopId: loop.id,
      kind: input.kind,
      status: input.sentAt ? 'sent' : 'draft',
      urlId: newToken('newsletterUrlId'),
      ...writtenColumns(prepared),
      createdAt: period.end,
      sentAt: input.sentAt,
      sendAt: input.sendAt ?? null,
    })
    .returning();
  if (!row) throw new Error('the newsletter was not stored');
  return row;
}
