import { eq, sql, type SQL } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import { loops, members, newsletters, updates, users } from '../../db/schema';

const memberCountSql = sql<number>`(select count(*) from ${members} where ${members.loopId} = ${loops.id})`;

/** Orders for Loop lists; ties broken by id so pages never overlap. */
export const LOOP_ORDERS = {
  recent: [sql`${loops.createdAt} desc`, sql`${loops.id} desc`],
  name: [sql`lower(${loops.name}) asc`, sql`${loops.id} asc`],
  members: [sql`${memberCountSql} desc`, sql`${loops.id} desc`],
} satisfies Record<string, SQL[]>;

/** Counts come from correlated aggregates: one query for any number of Loops. */
const summaryFields = {
  loop: loops,
  creator: { firstName: users.firstName, lastName: users.lastName, email: users.email },
  memberCount: memberCountSql.mapWith(Number),
  updateCount: sql<number>`(select count(*) from ${updates} where ${updates.loopId} = ${loops.id})`.mapWith(Number),
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

/** Loops as the API shows them, filtered by `where`, newest first unless told otherwise. */
export async function selectLoopSummaries(
  db: DbOrTx,
  where: SQL | undefined,
  options: { order?: keyof typeof LOOP_ORDERS; limit?: number; offset?: number } = {},
): Promise<LoopSummary[]> {
  const query = db
    .select(summaryFields)
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(where)
    .orderBy(...LOOP_ORDERS[options.order ?? 'recent'])
    .$dynamic();
  if (options.limit !== undefined) query.limit(options.limit);
  if (options.offset) query.offset(options.offset);
  const rows = await query;
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
