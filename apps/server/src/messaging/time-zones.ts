import { and, asc, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { timezones } from 'libphonenumber-geo-carrier';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { DbOrTx } from '../db/client';
import { loops, members, users } from '../db/schema';
import { COUNTRY_ZONES } from './country-zones';

/**
 * Each member's time zone (decision 0036), first that is set:
 * 1. the one the person chose (Profile: `users.time_zone`);
 * 2. the one the Loop's owner chose for them (member edit: `members.time_zone`, that Loop only);
 * 3. their phone number's, when its country or area code has exactly one zone (libphonenumber's
 *    time-zone map, looked up once per person into `users.phone_time_zone`);
 * 4. the Loop's; and when the phone's country has several zones, quiet hours hold in all of
 *    them (decision 0057).
 */

/** Number types whose digits name a place: a landline's area code, or a North American number's. */
const PLACED_TYPES = new Set(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

/**
 * The phone number's zone when the map gives it exactly one; '' when several or none. In a
 * country with several zones only a number tied to a place counts: the map files a mobile
 * number (+61 4, +7 9, +62 8) under the country's capital, wherever its holder is (decision 0057).
 */
export async function lookUpPhoneTimeZone(e164: string): Promise<string> {
  const parsed = parsePhoneNumberFromString(e164);
  if (parsed?.country && COUNTRY_ZONES[parsed.country] && !PLACED_TYPES.has(parsed.getType() ?? '')) return '';
  const zones = await timezones(parsed);
  return zones?.length === 1 ? (zones[0] ?? '') : '';
}

/** The phone's country and all its zones, when it has several (zone.tab); else null. */
export function phoneCountryZones(phone: string): { country: string; zones: readonly string[] } | null {
  const country = parsePhoneNumberFromString(phone.replace(/^whatsapp:/, ''))?.country;
  const zones = country ? COUNTRY_ZONES[country] : undefined;
  return country && zones ? { country, zones } : null;
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
 * SQL: whether anything tells where user `userId` is, as a member of Loop `loopId`: their own
 * zone, the owner's for them, or their phone's (rules 1 to 3). When nothing does, quiet hours
 * hold in every zone of their phone's country (decision 0057).
 */
export function personZoneKnown(userId: SQLWrapper, loopId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`coalesce((select coalesce(ku.time_zone, nullif(ku.phone_time_zone, ''),
      (select km.time_zone from ${members} km where km.user_id = ku.id and km.loop_id = ${loopId})) is not null
    from ${users} ku where ku.id = ${userId}), false)`;
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
