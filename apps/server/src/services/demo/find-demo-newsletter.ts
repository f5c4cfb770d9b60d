import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loops, newsletters, users } from '../../db/schema';
import { DEMO_EMAIL } from './demo-content';

/**
 * The urlId of the newest sent newsletter of the demo's Loops, or null when there is no demo.
 * Only the demo account's Loops: a real group's newsletter is never shown to strangers.
 */
export async function findDemoNewsletter(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ urlId: newsletters.urlId })
    .from(newsletters)
    .innerJoin(loops, eq(loops.id, newsletters.loopId))
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(and(eq(sql`lower(${users.email})`, DEMO_EMAIL), eq(newsletters.status, 'sent'), eq(newsletters.kind, 'newsletter')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(1);
  return row?.urlId ?? null;
}
