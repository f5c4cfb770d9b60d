import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters, updates } from '../../db/schema';

/**
 * The condition sits in a nested `and()` on purpose: in a select from one table drizzle writes the
 * columns at the top level of a selected `sql` without their table, and `"loop_id" = "id"` inside
 * the subquery would compare a newsletter with itself. Nested, they keep their table's name.
 */
const sentIssueOfTheLoop = and(eq(newsletters.loopId, loops.id), eq(newsletters.kind, 'newsletter'), eq(newsletters.status, 'sent'));

/**
 * Where the coming issue of each Loop starts: the end of its last sent newsletter, or the Loop's
 * creation (as findNewsletterPeriod; sneak peeks do not count). Members who sent nothing since are
 * the silent ones (decision 0043).
 */
export const comingIssueStart = sql<Date>`coalesce((select max(${newsletters.periodEnd}) from ${newsletters}
  where ${sentIssueOfTheLoop}), ${loops.createdAt})`;

/** Each Loop's members who sent an update since its last newsletter: loop id -> their user ids. */
export async function postedSinceLastNewsletter(tx: DbOrTx, loopIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const posted = new Map<number, Set<number>>();
  if (loopIds.length === 0) return posted;
  const rows = await tx
    .selectDistinct({ loopId: updates.loopId, userId: updates.userId })
    .from(updates)
    .innerJoin(loops, eq(loops.id, updates.loopId))
    .where(and(inArray(updates.loopId, [...loopIds]), sql`${updates.createdAt} >= ${comingIssueStart}`));
  for (const row of rows) {
    const set = posted.get(row.loopId) ?? new Set<number>();
    set.add(row.userId);
    posted.set(row.loopId, set);
  }
  return posted;
}
