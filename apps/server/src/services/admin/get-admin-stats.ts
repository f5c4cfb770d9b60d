import { sql } from 'drizzle-orm';
import type { AdminStats, GrowthPoint } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { loops, members } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';

// A date, not a formatted string: grouping 100,000 dates is far cheaper than 100,000 to_char calls.
const utcDay = (column: typeof loops.createdAt | typeof members.createdAt) =>
  // ::text after ::date, so no driver turns it into a Date at local midnight.
  sql<string>`((${column} at time zone 'UTC')::date)::text`;

type Growth = Omit<AdminStats, 'totalUpdates'>;

/**
 * The last growth answer and the fingerprint it was computed for. One per app (AppContext,
 * built by createGrowthCache), so nothing is kept at module level.
 */
export interface GrowthCache {
  entry?: { key: string; growth: Promise<Growth> };
}

export function createGrowthCache(): GrowthCache {
  return {};
}

/**
 * Totals and cumulative daily growth (UTC days) from the first Loop to today. Grouping every
 * member by day is the costly part, so that answer is kept (one per app: the context's growthCache) until the data
 * changes: any insert or delete moves the Loop count, the member total or a newest id. Total
 * updates (docs/product.md#admin-dashboard: the sum of every Loop's updateCount) changes with each text, so it is read fresh
 * with the fingerprint and is not part of it.
 */
export async function getAdminStats(db: Db, cache: GrowthCache, now: Date): Promise<AdminStats> {
  const [row] = await db
    .select({
      loops: sql<number>`count(*)`.mapWith(Number),
      members: sql<number>`coalesce(sum(${loops.memberCount}), 0)`.mapWith(Number),
      newestLoop: sql<number>`coalesce(max(${loops.id}), 0)`.mapWith(Number),
      newestMember: sql<number>`(select coalesce(max(${members.id}), 0) from ${members})`.mapWith(Number),
      updates: sql<number>`coalesce(sum(${loops.updateCount}), 0)`.mapWith(Number),
    })
    .from(loops);
  const { updates: totalUpdates = 0, ...fingerprint } = row ?? {};
  const key = `${JSON.stringify(fingerprint)}@${now.toISOString().slice(0, 10)}`;
  let cached = cache.entry;
  if (cached?.key !== key) {
    // Requests that miss together share one computation.
    const entry = { key, growth: computeGrowth(db, now) };
    cache.entry = entry;
    entry.growth.catch(() => {
      if (cache.entry === entry) delete cache.entry;
    });
    cached = entry;
  }
  const { totalLoops, totalMembers, loopGrowth, memberGrowth } = await cached.growth;
  return { totalLoops, totalMembers, totalUpdates, loopGrowth, memberGrowth };
}

async function computeGrowth(db: Db, now: Date): Promise<Growth> {
  const [loopDays, memberDays] = await Promise.all([
    db
      .select({ day: utcDay(loops.createdAt), count: sql<number>`count(*)`.mapWith(Number) })
      .from(loops)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db
      .select({ day: utcDay(members.createdAt), count: sql<number>`count(*)`.mapWith(Number) })
      .from(members)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
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
