import { and, asc, count, eq, max, sql } from 'drizzle-orm';
import type { ComingIssueAnswer, ComingIssueMember } from '@loop/shared/reminder-questions';
import type { DbOrTx } from '../../db/client';
import { loops, members, updates, users } from '../../db/schema';
import { membershipIsActive } from '../members/membership-is-active';
import { comingIssueStart } from './posted-since-last-newsletter';

/**
 * Who has and has not sent something for the Loop's coming issue (decision 0043): its active
 * members with how many updates they sent since the last newsletter. The silent ones are those the
 * reminders and the last call go to (when they may be texted at all).
 */
export async function listComingIssueSenders(db: DbOrTx, loopId: number): Promise<ComingIssueAnswer> {
  const [loop] = await db
    .select({ since: comingIssueStart, nextNewsletterAt: loops.nextNewsletterAt })
    .from(loops)
    .where(eq(loops.id, loopId));
  const since = new Date(loop?.since ?? 0);
  const rows = await db
    .select({
      memberId: members.id,
      firstName: users.firstName,
      lastName: users.lastName,
      updates: count(updates.id),
      lastSentAt: max(updates.createdAt),
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .leftJoin(updates, and(eq(updates.loopId, members.loopId), eq(updates.userId, members.userId), sql`${updates.createdAt} >= ${since}`))
    .where(and(eq(members.loopId, loopId), membershipIsActive))
    .groupBy(members.id, users.firstName, users.lastName)
    .orderBy(asc(users.firstName), asc(users.lastName), asc(members.id));
  const list: ComingIssueMember[] = rows.map((r) => ({
    memberId: r.memberId,
    firstName: r.firstName,
    lastName: r.lastName,
    updates: Number(r.updates),
    lastSentAt: r.lastSentAt ? new Date(r.lastSentAt).toISOString() : null,
  }));
  return {
    since: since.toISOString(),
    nextNewsletterAt: loop?.nextNewsletterAt?.toISOString() ?? null,
    sent: list.filter((m) => m.updates > 0),
    silent: list.filter((m) => m.updates === 0),
  };
}
