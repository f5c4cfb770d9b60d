import { eq, sql, type SQL } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import { loops, newsletters, users } from '../../db/schema';

/** Orders for Loop lists; ties broken by id so pages never overlap. */
export const LOOP_ORDERS = {
  recent: [sql`${loops.createdAt} desc`, sql`${loops.id} desc`],
  name: [sql`lower(${loops.name}) asc`, sql`${loops.id} asc`],
  members: [sql`${loops.memberCount} desc`, sql`${loops.id} desc`],
} satisfies Record<string, SQL[]>;

/**
 * One row per Loop, joined to its creator (`users`): the counts are columns kept by triggers
 * (migration 0002). Only the columns a summary shows, so lists carry nothing else.
 */
export const summaryFields = {
  loop: {
    id: loops.id,
    name: loops.name,
    context: loops.context,
    vibe: loops.vibe,
    frequency: loops.frequency,
    reminderSchedule: loops.reminderSchedule,
    timeZone: loops.timeZone,
    creatorId: loops.creatorId,
    createdAt: loops.createdAt,
    paused: loops.paused,
    newsletterDay: loops.newsletterDay,
    newsletterTime: loops.newsletterTime,
    newsletterReview: loops.newsletterReview,
  },
  creator: { firstName: users.firstName, lastName: users.lastName, email: users.email },
  memberCount: loops.memberCount,
  updateCount: loops.updateCount,
  lastNewsletter: sql<
    string | null
  >`(select max(${newsletters.sentAt}) from ${newsletters} where ${newsletters.loopId} = ${loops.id} and ${newsletters.status} = 'sent' and ${newsletters.kind} = 'newsletter')`.mapWith(
    (v: unknown) => (v == null ? null : toIso(v)),
  ),
};

type SummaryRow = {
  loop: Pick<
    typeof loops.$inferSelect,
    | 'id'
    | 'name'
    | 'context'
    | 'vibe'
    | 'frequency'
    | 'reminderSchedule'
    | 'timeZone'
    | 'creatorId'
    | 'createdAt'
    | 'paused'
    | 'newsletterDay'
    | 'newsletterTime'
    | 'newsletterReview'
  >;
  creator: LoopSummary['creator'];
  memberCount: number;
  updateCount: number;
  lastNewsletter: string | null;
};

/** Loops as the API shows them, filtered by `where` (which may use the creator's `users` columns), newest first. */
export async function selectLoopSummaries(db: DbOrTx, where: SQL | undefined): Promise<LoopSummary[]> {
  const rows = await db
    .select(summaryFields)
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(where)
    .orderBy(...LOOP_ORDERS.recent);
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
    newsletterDay: loop.newsletterDay,
    newsletterTime: loop.newsletterTime,
    newsletterReview: loop.newsletterReview,
    creator: row.creator,
    memberCount: row.memberCount,
    updateCount: row.updateCount,
    lastNewsletter: row.lastNewsletter,
  };
}

function toIso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
