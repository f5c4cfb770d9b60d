import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { LoopMember, TimeZoneSource } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import { loops, members, messages, users } from '../../db/schema';
import { phoneCountryZones } from '../../messaging/time-zones';

export interface ZoneFacts {
  userTimeZone: string | null;
  ownerTimeZone: string | null;
  /** '' or null: the phone number says nothing (several zones, or not looked up yet). */
  phoneTimeZone: string | null;
  loopTimeZone: string;
  /** Their phone number: its country's zones hold their quiet hours when nothing else tells (decision 0057). */
  phoneNumber: string;
  /** timestamptz as the database answers it. */
  scheduledFor: Date | string | null;
}

type MemberZone = Pick<LoopMember, 'timeZone' | 'timeZoneSource' | 'timeZoneCountry' | 'ownerTimeZone' | 'scheduledFor'>;

/**
 * The zone a member's texts follow and where it comes from (decision 0036; SQL:
 * messaging/time-zones.ts). 'country': reminders follow the Loop's zone, and texts go only while
 * it is daytime in every zone of the phone's country (decision 0057).
 */
export function memberZone(facts: ZoneFacts): MemberZone {
  const country = phoneCountryZones(facts.phoneNumber)?.country ?? null;
  const [timeZone, timeZoneSource]: [string, TimeZoneSource] = facts.userTimeZone
    ? [facts.userTimeZone, 'member']
    : facts.ownerTimeZone
      ? [facts.ownerTimeZone, 'owner']
      : facts.phoneTimeZone
        ? [facts.phoneTimeZone, 'phone']
        : [facts.loopTimeZone, country ? 'country' : 'loop'];
  return {
    timeZone,
    timeZoneSource,
    timeZoneCountry: timeZoneSource === 'country' ? country : null,
    ownerTimeZone: facts.ownerTimeZone,
    scheduledFor: facts.scheduledFor ? new Date(facts.scheduledFor).toISOString() : null,
  };
}

/** SQL over a query that reads the person (their phone column): when their first text waiting out quiet hours goes. */
export function scheduledForSql(phone: SQLWrapper, now: Date) {
  return sql<string | null>`(select min(${messages.notBefore}) from ${messages}
    where ${messages.toAddress} = ${phone} and ${messages.status} = 'queued' and ${messages.notBefore} > ${now.toISOString()}::timestamptz)`;
}

/**
 * memberZone for one membership, read now. `ownZone` false: the person's own zone stays out, as
 * their name does until they said yes with an account (decision 0031).
 */
export async function readMemberZone(tx: DbOrTx, memberId: number, now: Date, ownZone = true): Promise<MemberZone> {
  const [row] = await tx
    .select({
      userTimeZone: users.timeZone,
      ownerTimeZone: members.timeZone,
      phoneTimeZone: users.phoneTimeZone,
      loopTimeZone: loops.timeZone,
      phoneNumber: users.phoneNumber,
      scheduledFor: scheduledForSql(users.phoneNumber, now),
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(eq(members.id, memberId));
  if (!row) throw new Error(`member ${memberId} not found`);
  return memberZone(ownZone ? row : { ...row, userTimeZone: null });
}
