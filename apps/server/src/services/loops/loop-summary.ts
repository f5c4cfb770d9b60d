import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters, users } from '../../db/schema';


/** Orders for Loop lists; ties broken by id so pages never overlap. */
export const LOOP_ORDERS = {
  recent: [sql`${loops.createdAt} desc`, sql`${loops.id} desc`],
  name: [sql`lower(${loops.name}) asc`, sql`${loops.id} asc`],
  members: [sql`${loops.memberCount} desc`, sql`${loops.id} desc`],
} satisfies Record<string, SQL[]>;

/** One query for any number of Loops: the counts are columns kept by triggers (migration 0002). */
const summaryFields = {
  loop: loops,
  creator: { firstName: users.firstName, lastName: users.lastName, email: users.email },
  memberCount: loops.memberCount,
  updateCount: loops.updateCount,
  lastNewsletter: sql<string | null>`(select max(${newsletters.sentAt}) from ${newsletters} where ${newsletters.loopId} = ${loops.id} and ${newsletters.status} = 'sent' and ${newsletters.kind} = 'newsletter')`.mapWith(
    (v: unknown) => (v == null ? null : toIso(v)),
  ),
};

type SummaryRow = {
  loop: typeof loops.$inferSelect;
  creator: LoopSummary['creator'];
  memberCount: number;
  updateCount: number;
  lastNewsletter: string | null;
};

/**
 * Loops as the API shows them, filtered by `where` (which may use the creator's `users` columns),
 * newest first unless told otherwise. With a limit, the page's ids are chosen first, so the
 * per-Loop work (creator, last newsletter) is done for that page only.
 */
export async function selectLoopSummaries(
  db: DbOrTx,
  where: SQL | undefined,
  options: { order?: keyof typeof LOOP_ORDERS; limit?: number; offset?: number } = {},
): Promise<LoopSummary[]> {
  const order = LOOP_ORDERS[options.order ?? 'recent'];
  let pageFilter = where;
  if (options.limit !== undefined) {
    const page = db.select({ id: loops.id }).from(loops).$dynamic();
    if (where) page.innerJoin(users, eq(users.id, loops.creatorId)).where(where);
    const ids = await page
      .orderBy(...order)
      .limit(options.limit)
      .offset(options.offset ?? 0);
    if (ids.length === 0) return [];
    pageFilter = inArray(
      loops.id,
      ids.map((r) => r.id),
    );
  }
  const rows = await db
    .select(summaryFields)
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(pageFilter)
    .orderBy(...order);
  return rows.map(toLoopSummary);
}

export function toLoopSummary(row: SummaryRow): LoopSummary {
  const { loop } = row;
  return {
    id: loop.id,
    name: loop.name,
    context: loop.context,
    vibe: loop.vibe,
    frequency: loop.frequency,
    reminderSchedule: loop.reminderSchedule,
    timeZone: loop.timeZone,
    creatorId: loop.creatorId,
    createdAt: loop.createdAt.toISOString(),
    paused: loop.paused,
    creator: row.creator,
    memberCount: row.memberCount,
    updateCount: row.updateCount,
    lastNewsletter: row.lastNewsletter,
  };
}

function toIso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
