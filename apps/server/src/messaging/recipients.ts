import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { countryName, phoneKind } from '@loop/shared/phone-kind';
import type { Config } from '../config';
import { loops, members, messages, undeliverablePhones, users } from '../db/schema';
import { phoneNotOptedOut } from './opt-outs';
import { textChannelOfUser } from './whatsapp-opt-in';
import { AppError } from '../errors';

/**
 * The one rule for who may be texted, used when texts are queued (reminders, newsletters, sneak
 * peeks, group messages: `findRecipients`) and again at the moment of sending (`sendableTextsQuery`):
 *
 * - the phone has not opted out (STOP, or Twilio refused it for good), and
 * - the carrier has not said the phone cannot receive texts (a landline, an unknown number, not a
 *   mobile: undeliverable_phones, decision 0039; codes a person asks for are exempt), and
 * - a reply to a number in no Loop (a stranger, or another bot) goes at most once a day, so two
 *   automated senders never answer each other forever (decision 0039), and
 * - for a text to a Loop's members: the person is still a member, the phone's holder said YES to
 *   that membership (it is active, decision 0015), and the Loop is not paused, and
 * - the number is a personal phone in a country Loop texts (`numberRefusal`: no premium-rate,
 *   shared-cost or satellite numbers, only SMS_COUNTRIES; decision 0030). Routes that take a
 *   number to text refuse it at once (`refuseUntextableNumber`); the sender checks every text again.
 *
 * A further condition on the membership goes in `memberMayBeTexted` and applies everywhere at once.
 */

/** The number types a person's own phone has; everything else is refused (decision 0030). */
const PERSONAL_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'FIXED_LINE', 'VOIP']);
const TYPE_NAMES: Record<string, string> = {
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  TOLL_FREE: 'a toll-free number',
  UAN: 'a company number',
  PERSONAL_NUMBER: 'a forwarding "personal number"',
  PAGER: 'a pager number',
  VOICEMAIL: 'a voicemail number',
};

/**
 * Why Loop will not text this number, or null when it may: a number type that is not a person's
 * own phone (premium rate, shared cost, satellite and international networks, numbers in no known
 * range: what SMS pumping uses), or a country outside SMS_COUNTRIES.
 */
export function numberRefusal(phone: string, countries: Config['smsCountries']): string | null {
  const { country, type } = phoneKind(phone);
  if (!country || !type || !PERSONAL_TYPES.has(type)) {
    const what = !country
      ? 'a satellite or international network number'
      : type
        ? TYPE_NAMES[type]
        : 'a number in no range that phones use';
    return `Loop can't text this kind of number${what ? ` (${what})` : ''}. Use a personal mobile phone number.`;
  }
  if (countries !== 'all' && !countries.includes(country)) {
    return `Loop can't text numbers in ${countryName(country)}: this Loop texts only numbers in ${countries.map(countryName).join(', ')}.`;
  }
  return null;
}

/** Refuses, with a 400 that says why, a number typed for Loop to text (sign-up, reset, members, joins). */
export function refuseUntextableNumber(config: Pick<Config, 'smsCountries'>, phone: string): void {
  const refusal = numberRefusal(phone, config.smsCountries);
  if (refusal) throw new AppError('bad_request', refusal);
}

/** Texts that go to a Loop's members: they need the membership (and an unpaused Loop) when sent. */
export const LOOP_WIDE_KINDS = ['reminder', 'newsletter', 'sneak_peek', 'group_message'] as const;

/**
 * Texts that answer a phone that opted out, as Twilio does: the STOP confirmation (where Twilio
 * does not send one itself) and the once-a-day "reply START to rejoin". No other text reaches
 * an opted-out phone.
 */
export const OPTED_OUT_KINDS = ['opt_out_notice'] as const;

/**
 * A code the person asked for goes even to a phone marked undeliverable: the mark may be wrong
 * (30005 can pass), and only they can show it is, by receiving one. Twilio bills a failed attempt.
 */
export const ASKED_FOR_KINDS = ['code'] as const;

/** SQL: this phone (E.164) has not opted out (opt-outs.ts: in the clear or by hash). */
export { phoneNotOptedOut };

/** SQL: the carrier has not said this phone (E.164) cannot receive texts. */
export function phoneCanReceive(phone: SQLWrapper): SQL {
  return sql`not exists (select 1 from ${undeliverablePhones} where ${undeliverablePhones.phoneNumber} = ${phone})`;
}

/** SQL: this phone (E.164) may be texted: not opted out, and able to receive texts. */
export function phoneMayBeTexted(phone: SQLWrapper): SQL {
  return sql`(${phoneNotOptedOut(phone)} and ${phoneCanReceive(phone)})`;
}

/**
 * SQL over a `messages` row: unless it is a reply to a number that is in no Loop (no membership,
 * pending or active) and that already got a reply in the day before it (one queued or sent
 * earlier, not one that failed), it may go.
 */
export function strangerReplyAllowed(): SQL {
  return sql`(${messages.kind} <> 'reply'
    or exists (select 1 from ${users} su join ${members} sm on sm.user_id = su.id where su.phone_number = ${messages.toAddress})
    or not exists (select 1 from ${messages} prior
      where prior.to_address = ${messages.toAddress} and prior.direction = 'outbound' and prior.kind = 'reply'
        and prior.id < ${messages.id} and prior.status <> 'failed'
        and prior.created_at > ${messages.createdAt} - interval '1 day'))`;
}

/** SQL: `userId` is an active (confirmed) member of Loop `loopId`, and that Loop is not paused. */
export function memberMayBeTexted(userId: SQLWrapper, loopId: SQLWrapper): SQL {
  // Aliased: the caller's query may itself read members and loops.
  return sql`exists (select 1 from ${members} as rm join ${loops} as rl on rl.id = rm.loop_id
    where rm.loop_id = ${loopId} and rm.user_id = ${userId} and rm.status = 'active' and not rl.paused)`;
}

/**
 * SQL over a `messages` row: unless it is an invitation, or its membership is still pending, it
 * may go. An invitation held through quiet hours is not sent to someone who joined (or declined,
 * or was removed) meanwhile by another path: the website, an invite link, a YES.
 */
export function invitationStillOpen(): SQL {
  return sql`(${messages.kind} <> 'invitation' or ${messages.loopId} is null
    or exists (select 1 from ${members} im where im.loop_id = ${messages.loopId} and im.user_id = ${messages.userId} and im.status = 'pending'))`;
}

/** SQL: the whole rule for a member of a Loop. */
export function mayBeTexted(input: { phone: SQLWrapper; userId: SQLWrapper; loopId: SQLWrapper }): SQL {
  return sql`(${phoneMayBeTexted(input.phone)} and ${memberMayBeTexted(input.userId, input.loopId)})`;
}

const quoted = (kinds: readonly string[]) =>
  sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );

/**
 * SQL over a `messages` row: whether it may still go out now. A Loop-wide text without a Loop
 * (queued directly to a person, as a script might) is checked on its phone alone.
 */
export function messageMayBeSent(): SQL {
  return sql`(
    (${messages.kind} in (${quoted(OPTED_OUT_KINDS)}) or ${phoneNotOptedOut(messages.toAddress)})
    and (${messages.kind} in (${quoted(ASKED_FOR_KINDS)}) or ${phoneCanReceive(messages.toAddress)})
    and ${strangerReplyAllowed()}
    and ${invitationStillOpen()}
    and (${messages.kind} not in (${quoted(LOOP_WIDE_KINDS)}) or ${messages.loopId} is null
         or ${memberMayBeTexted(messages.userId, messages.loopId)})
  )`;
}

export interface Recipient {
  memberId: number;
  loopId: number;
  userId: number;
  firstName: string;
  phoneNumber: string;
  channel: 'sms' | 'whatsapp';
}

/**
 * Every member of these Loops who may be texted now, in one statement, ordered by person then
 * Loop. The only way Loop-wide texts find their recipients.
 */
export async function findRecipients(tx: DbOrTx, loopIds: readonly number[]): Promise<Recipient[]> {
  if (loopIds.length === 0) return [];
  return tx
    .select({
      memberId: members.id,
      loopId: members.loopId,
      userId: users.id,
      firstName: users.firstName,
      phoneNumber: users.phoneNumber,
      // WhatsApp once the person chose it themselves (decision 0060).
      channel: textChannelOfUser,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        loopIds.length === 1 ? eq(members.loopId, loopIds[0] as number) : inArray(members.loopId, [...loopIds]),
        mayBeTexted({ phone: users.phoneNumber, userId: members.userId, loopId: members.loopId }),
      ),
    )
    .orderBy(asc(users.id), asc(members.loopId));
}

// node-postgres answers booleans as booleans, PGlite's raw rows sometimes as 't'.
const isTrue = (value: unknown) => value === true || value === 't';

/** What the send-time check knows about a claimed text. */
export interface Sendable {
  /** False: the phone opted out, the member left, the Loop was paused since it was queued, or the number is refused. */
  allowed: boolean;
  /** Of those: why the number itself is refused (numberRefusal), else null. */
  refusal: string | null;
  /** Of those: the phone opted out. */
  optedOut: boolean;
  /** Of those: the carrier said the phone cannot receive texts (its Twilio error code), else null. */
  undeliverable: number | null;
  /** Of those: a reply to a number in no Loop that had one less than a day before. */
  strangerRepliedToday: boolean;
  /** Of those: an invitation whose membership is no longer pending (they joined, declined or were removed). */
  invitationAnswered: boolean;
  /** The member's last WhatsApp text, read now (a 63016 may have closed the window meanwhile). */
  lastWhatsappInboundAt: Date | null;
}

/**
 * The send-time re-check of many texts in one statement: whether each may still go out, and the
 * member's WhatsApp window as it is now. A sender asks it every few texts, so it is a prepared
 * statement (the server parses and plans it once per connection) taking the ids as one array
 * parameter: the same statement text whatever the number of texts. Build it once per sending run.
 */
export function sendableTextsQuery(db: Db, countries: Config['smsCountries']): (ids: readonly number[]) => Promise<Map<number, Sendable>> {
  const query = db
    .select({
      id: messages.id,
      toAddress: messages.toAddress,
      allowed: sql<boolean>`${messageMayBeSent()}`.mapWith(isTrue),
      optedOut: sql<boolean>`not ${phoneNotOptedOut(messages.toAddress)}`.mapWith(isTrue),
      strangerRepliedToday: sql<boolean>`not ${strangerReplyAllowed()}`.mapWith(isTrue),
      invitationAnswered: sql<boolean>`not ${invitationStillOpen()}`.mapWith(isTrue),
      undeliverable: sql<
        number | null
      >`(select ${undeliverablePhones.errorCode} from ${undeliverablePhones} where ${undeliverablePhones.phoneNumber} = ${messages.toAddress})`.mapWith(
        (v: unknown) => (v === null || v === undefined ? null : Number(v)),
      ),
      lastWhatsappInboundAt: users.lastWhatsappInboundAt,
    })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.userId))
    // Text cast to bigint[]: node-postgres and PGlite pass a string parameter alike.
    .where(sql`${messages.id} = any(${sql.placeholder('ids')}::text::bigint[])`)
    .prepare('loop_send_check');
  return async (ids) => {
    const result = new Map<number, Sendable>();
    if (ids.length === 0) return result;
    for (const row of await query.execute({ ids: `{${ids.join(',')}}` })) {
      const refusal = numberRefusal(row.toAddress, countries);
      result.set(row.id, {
        allowed: row.allowed && refusal === null,
        refusal,
        optedOut: row.optedOut,
        undeliverable: row.undeliverable,
        strangerRepliedToday: row.strangerRepliedToday,
        invitationAnswered: row.invitationAnswered,
        lastWhatsappInboundAt: row.lastWhatsappInboundAt,
      });
    }
    return result;
  };
}
