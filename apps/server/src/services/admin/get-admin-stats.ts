import { sql } from 'drizzle-orm';
import type { AdminStats, GrowthPoint } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { loops, members } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';

const utcDay = (column: typeof loops.createdAt | typeof members.createdAt) =>
  sql<string>`to_char(date_trunc('day', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** Totals and cumulative daily growth (UTC days) from the first Loop to today. */
export async function getAdminStats(db: Db, now: Date): Promise<AdminStats> {
  const [loopDays, memberDays] = await Promise.all([
    db.select({ day: utcDay(loops.createdAt), count: sql<number>`count(*)`.mapWith(Number) }).from(loops).groupBy(sql`1`).orderBy(sql`1`),
    db.select({ day: utcDay(members.createdAt), count: sql<number>`count(*)`.mapWith(Number) }).from(members).groupBy(sql`1`).orderBy(sql`1`),
  ]);
  const start = loopDays[0]?.day;
  return {
    totalLoops: loopDays.reduce((sum, d) => sum + d.count, 0),
    totalMembers: memberDays.reduce((sum, d) => sum + d.count, 0),
    loopGrowth: start ? cumulative(loopDays, start, now) : [],
    memberGrowth: start ? cumulative(memberDays, start, now) : [],
  };
}

/** One point per day from `start` to today, each the running total up to that day. */
function cumulative(days: { day: string; count: number }[], start: string, now: Date): GrowthPoint[] {
  const perDay = new Map(days.map((d) => [d.day, d.count]));
  // Counts from before the first Loop (members cannot be, but be safe) belong to its first day.
  let total = days.filter((d) => d.day < start).reduce((sum, d) => sum + d.count, 0);
  const points: GrowthPoint[] = [];
  const today = now.toISOString().slice(0, 10);
  for (let t = Date.parse(`${start}T00:00:00Z`); ; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (date > today) break;
    total += perDay.get(date) ?? 0;
    points.push({ date, count: total });
  }
  return points;
}
