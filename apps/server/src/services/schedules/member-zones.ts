import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { zoneOf } from '../../messaging/time-zones';

/** Each active member's time zone (decision 0036), per Loop: loopId → userId → zone. */
export async function activeMemberZones(tx: DbOrTx, loopIds: readonly number[]): Promise<Map<number, Map<number, string>>> {
  const byLoop = new Map<number, Map<number, string>>();
  if (loopIds.length === 0) return byLoop;
  const rows = await tx
    .select({ loopId: members.loopId, userId: members.userId, zone: zoneOf(users, members, loops) })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(inArray(members.loopId, [...loopIds]), eq(members.status, 'active')));
  for (const row of rows) {
    if (!row.zone) continue;
    const zones = byLoop.get(row.loopId) ?? new Map<number, string>();
    zones.set(row.userId, row.zone);
    byLoop.set(row.loopId, zones);
  }
  return byLoop;
}
