import { and, asc, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { timezones } from 'libphonenumber-geo-carrier';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { DbOrTx } from '../db/client';
import { loops, members, users } from '../db/schema';

/**
 * Each member's time zone (decision 0036), first that is set:
 * 1. the one the person chose (Profile: `users.time_zone`);
 * 2. the one the Loop's owner chose for them (member edit: `members.time_zone`, that Loop only);
 * 3. their phone number's, when its country or area code has exactly one zone (libphonenumber's
 *    time-zone map, looked up once per person into `users.phone_time_zone`);
 * 4. the Loop's.
 */

/** The phone number's zone when the map gives it exactly one; '' when several or none. */
export async function lookUpPhoneTimeZone(e164: string): Promise<string> {
  const zones = await timezones(parsePhoneNumberFromString(e164));
  return zones?.length === 1 ? (zones[0] ?? '') : '';
}

/** SQL over a query that reads the person, the membership and the Loop: the zone (rules 1 to 4). */
export function zoneOf(
  user: { timeZone: SQLWrapper; phoneTimeZone: SQLWrapper },
  member: { timeZone: SQLWrapper },
  loop: { timeZone: SQLWrapper },
): SQL<string> {
  return sql<string>`coalesce(${user.timeZone}, ${member.timeZone}, nullif(${user.phoneTimeZone}, ''), ${loop.timeZone})`;
}

const person = alias(users, 'tu');
const membership = alias(members, 'tm');
const itsLoop = alias(loops, 'tl');

/** SQL: the zone of user `userId` as a member of Loop `loopId` (rules 1 to 4, by zoneOf). */
export function memberTimeZone(userId: SQLWrapper, loopId: SQLWrapper): SQL<string | null> {
  return sql<string | null>`(select ${zoneOf(person, membership, itsLoop)}
    from ${users} ${person} left join ${members} ${membership} on ${membership.userId} = ${person.id} and ${membership.loopId} = ${loopId}
    left join ${loops} ${itsLoop} on ${itsLoop.id} = ${loopId}
    where ${person.id} = ${userId})`;
}

/**
 * SQL: the zone of a text's recipient: as a member of the text's Loop; a text without a Loop
 * (or whose Loop is gone) takes the zone of the person's first Loop. Null: nothing is known.
 */
export function recipientTimeZone(userId: SQLWrapper, loopId: SQLWrapper): SQL<string | null> {
  return sql<string | null>`coalesce(${memberTimeZone(userId, loopId)},
    (select fl.time_zone from ${members} fm join ${loops} fl on fl.id = fm.loop_id where fm.user_id = ${userId} order by fm.id limit 1))`;
}

/**
 * Looks up the phone zone of up to `limit` people who have none yet (new members, and everyone
 * after the migration that added it); the scheduler runs it every minute. Returns how many.
 */
export async function fillPhoneTimeZones(db: DbOrTx, limit: number): Promise<number> {
  const rows = await db
    .select({ id: users.id, phoneNumber: users.phoneNumber })
    .from(users)
    .where(isNull(users.phoneTimeZone))
    .orderBy(asc(users.id))
    .limit(limit);
  for (const row of rows) {
    const zone = await lookUpPhoneTimeZone(row.phoneNumber);
    await db
      .update(users)
      .set({ phoneTimeZone: zone })
      .where(and(eq(users.id, row.id), isNull(users.phoneTimeZone)));
  }
  return rows.length;
}
