import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters } from '../../db/schema';
import type { NewsletterRow } from './insert-newsletter';

export interface PublicNewsletter {
  newsletter: NewsletterRow;
  /** creatorId: who besides staff may see it while it is a draft (decision 0040); not shown on the page. */
  loop: { name: string; timeZone: string; creatorId: number };
}

/** A newsletter by its public urlId, with what its page shows of the Loop; null when unknown. */
export async function findPublicNewsletter(db: DbOrTx, urlId: string): Promise<PublicNewsletter | null> {
  const [row] = await db
    .select({ newsletter: newsletters, loop: { name: loops.name, timeZone: loops.timeZone, creatorId: loops.creatorId } })
    .from(newsletters)
    .innerJoin(loops, eq(loops.id, newsletters.loopId))
    .where(eq(newsletters.urlId, urlId))
    .limit(1);
  return row ?? null;
}
