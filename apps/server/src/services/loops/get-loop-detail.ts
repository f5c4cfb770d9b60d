import { eq, sql } from 'drizzle-orm';
import type { EmailStatus, NewsletterDelivery } from '@loop/shared/constants';
import type { LoopDetail, LoopMember, LoopRole, LoopUpdate } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, media, members, messages, phoneOptOuts, undeliverablePhones, updates, users, type MediaVariant } from '../../db/schema';
import { AppError } from '../../errors';
import { seesContactDetails } from '../loop-access';
import { isClipRow } from '../../media/clip';
import { clipOf } from '../../media/find-media';
import { mediaUrl } from '../../storage/media-storage';
import { emailStatusSql } from '../email/email-status';
import { memberZone, scheduledForSql } from '../members/member-zone';
import { authorName, namesOnly, showsOwnDetails, toLoopMember } from '../members/to-loop-member';
import { memberState } from '../members/member-state';
import { loopNewslettersJson, toLoopNewsletterRow, type LoopNewsletterRow } from './loop-newsletters';
import { summaryFields, toLoopSummary } from './loop-summary';

/** A member as the statement below builds it (PostgreSQL's JSON: ids are numbers, names snake_case). */
interface MemberJson {
  id: number;
  context: string | null;
  user_id: number;
  first_name: string;
  last_name: string;
  phone_number: string;
  email: string | null;
  messaging_preference: LoopMember['user']['messagingPreference'];
  has_account: boolean;
  organizer?: boolean;
  newsletter_delivery: NewsletterDelivery;
  email_status: EmailStatus;
  typed_first_name: string | null;
  typed_last_name: string | null;
  typed_email: string | null;
  typed_messaging_preference: LoopMember['user']['messagingPreference'] | null;
  status: 'pending' | 'active' | 'declined';
  invited_at: string | null;
  invitation_withheld: boolean;
  opted_out: boolean;
  last_failure: string | null;
  user_time_zone: string | null;
  owner_time_zone: string | null;
  phone_time_zone: string | null;
  scheduled_for: string | null;
  undeliverable_code: number | null;
  whatsapp_refused: boolean;
}

interface UpdateJson {
  id: number;
  user_id: number;
  content: string;
  /** timestamptz as PostgreSQL writes it in JSON. */
  created_at: string;
  first_name: string;
  last_name: string;
  has_account: boolean;
  status: 'pending' | 'active' | 'declined' | null;
  typed_first_name: string | null;
  typed_last_name: string | null;
  photos: { key: string; width: number; height: number; widths: number[] }[] | null;
  clips: { key: string; content_type: string; width: number; height: number; variants: MediaVariant[]; transcript: string | null }[] | null;
}

/** How many updates the Loop page shows, newest first. */
export const DETAIL_UPDATE_LIMIT = 200;

/**
 * A Loop with its members (oldest first; the first `memberLimit` of them when given) and its
 * newest updates with their media, in one statement: each query is a round trip to the database,
 * and on a busy server the round trips, not the rows, were most of this call's cost. The
 * subqueries name the Loop by the parameter, not by `loops.id`, so that PostgreSQL plans them for
 * this Loop's size (a Loop of 10,000 updates reads its newest 200 from the index, not all of them).
 */
export async function getLoopDetail(
  db: Db,
  loopId: number,
  role: LoopRole,
  options: { memberLimit?: number; now?: Date; viewerId?: number } = {},
): Promise<LoopDetail> {
  return (await getLoopDetailAndNewsletters(db, loopId, role, options)).detail;
}

/**
 * getLoopDetail, and with `newsletters` the Loop's newsletters too (loop-newsletters.ts), read in
 * the same statement; without it, `newsletters` is empty.
 */
export async function getLoopDetailAndNewsletters(
  db: Db,
  loopId: number,
  role: LoopRole,
  options: { memberLimit?: number; now?: Date; newsletters?: { countedAfter: Date }; staffView?: boolean; viewerId?: number } = {},
): Promise<{ detail: LoopDetail; newsletters: LoopNewsletterRow[] }> {
  const limit = options.memberLimit === undefined ? sql`` : sql`limit ${options.memberLimit}`;
  const [row] = await db
    .select({
      ...summaryFields,
      // A Loop may have a thousand members: each member's person by primary key. LATERAL with
      // LIMIT keeps that a nested loop; joined plainly, the planner's estimate picks a hash join
      // over every user for a large Loop.
      members: sql<MemberJson[]>`(
        select coalesce(json_agg(m order by m.created_at, m.id), '[]'::json) from (
          select ${members.id} as id, ${members.context} as context, ${members.createdAt} as created_at,
            p.id as user_id, p.first_name, p.last_name, p.phone_number, p.email, p.messaging_preference, p.has_account,
            p.newsletter_delivery, ${emailStatusSql(sql`p.email`, sql`p.email_confirmed_address`)} as email_status,
            ${members.firstName} as typed_first_name, ${members.lastName} as typed_last_name, ${members.email} as typed_email,
            ${members.messagingPreference} as typed_messaging_preference,
            ${members.status} as status, ${members.organizer} as organizer, ${members.invitedAt} as invited_at, ${members.invitationWithheld} as invitation_withheld,
            exists (select 1 from ${phoneOptOuts} where ${phoneOptOuts.phoneNumber} = p.phone_number) as opted_out,
            (select ${undeliverablePhones.errorCode} from ${undeliverablePhones} where ${undeliverablePhones.phoneNumber} = p.phone_number) as undeliverable_code,
            (p.whatsapp_refused_at is not null and p.messaging_preference = 'sms') as whatsapp_refused,
            -- The last text to the phone that got an answer, if it failed (index messages_to_address_created_at_idx).
            (select case when last.status in ('failed', 'undelivered') then coalesce(last.error, '') end from (
              select ${messages.status} as status, ${messages.error} as error from ${messages}
              where ${messages.toAddress} = p.phone_number and ${messages.status} in ('sent', 'delivered', 'failed', 'undelivered')
              order by ${messages.createdAt} desc limit 1) last) as last_failure,
            p.time_zone as user_time_zone, ${members.timeZone} as owner_time_zone, p.phone_time_zone,
            ${scheduledForSql(sql`p.phone_number`, options.now ?? new Date())} as scheduled_for
          from ${members}
          cross join lateral (
            select ${users.id}, ${users.firstName}, ${users.lastName}, ${users.phoneNumber}, ${users.email}, ${users.messagingPreference},
              ${users.timeZone}, ${users.phoneTimeZone}, ${users.newsletterDelivery}, ${users.emailConfirmedAddress},
              ${users.passwordHash} is not null as has_account, ${users.whatsappRefusedAt} as whatsapp_refused_at
            from ${users} where ${users.id} = ${members.userId} limit 1
          ) p
          where ${members.loopId} = ${loopId}
          order by ${members.createdAt}, ${members.id}
          ${limit}
        ) m)`,
      // The newest updates first, then their authors, photos and clips (index media_update_id_idx).
      updates: sql<UpdateJson[]>`(
        select coalesce(json_agg(u order by u.created_at desc, u.id desc), '[]'::json) from (
          select newest.id, newest.user_id, newest.content, newest.created_at, author.first_name, author.last_name, author.has_account,
            membership.status, membership.typed_first_name, membership.typed_last_name,
            (select json_agg(json_build_object('key', ${media.storageKey}, 'width', ${media.width}, 'height', ${media.height},
                'widths', (select json_agg((v->>'width')::int) from jsonb_array_elements(${media.variants}) v)) order by ${media.position}, ${media.id})
              from ${media} where ${media.updateId} = newest.id and ${media.variants} <> '[]'::jsonb and not ${isClipRow}) as photos,
            (select json_agg(json_build_object('key', ${media.storageKey}, 'content_type', ${media.contentType}, 'width', ${media.width},
                'height', ${media.height}, 'variants', ${media.variants}, 'transcript', ${media.transcript}) order by ${media.position}, ${media.id})
              from ${media} where ${media.updateId} = newest.id and ${isClipRow}) as clips
          from (
            select ${updates.id} as id, ${updates.userId} as user_id, ${updates.content} as content, ${updates.createdAt} as created_at
            from ${updates}
            where ${updates.loopId} = ${loopId}
            order by ${updates.createdAt} desc, ${updates.id} desc
            limit ${DETAIL_UPDATE_LIMIT}
          ) newest
          cross join lateral (select ${users.firstName}, ${users.lastName}, ${users.passwordHash} is not null as has_account
            from ${users} where ${users.id} = newest.user_id limit 1) author
          -- The author as this Loop shows them (decision 0031): none when they have left it.
          left join lateral (select ${members.status} as status, ${members.firstName} as typed_first_name, ${members.lastName} as typed_last_name
            from ${members} where ${members.loopId} = ${loopId} and ${members.userId} = newest.user_id limit 1) membership on true
        ) u)`,
      newsletters: options.newsletters ? loopNewslettersJson(loopId, options.newsletters.countedAfter) : sql<null>`null`,
    })
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(eq(loops.id, loopId));
  if (!row) throw new AppError('not_found', 'Loop not found.');

  const summary = toLoopSummary(row);
  // A plain member sees the others' names, not how to reach them (decision 0054).
  const contactOf = (personId: number) => seesContactDetails(role, options.viewerId, personId);
  if (!contactOf(summary.creatorId)) summary.creator = { ...summary.creator, email: null };
  const memberRows = parseJson(row.members);
  const now = options.now ?? new Date();
  const memberList: LoopMember[] = memberRows.map((m) => ({
    ...memberState(
      {
        status: m.status,
        invitedAt: m.invited_at ? new Date(m.invited_at) : null,
        invitationWithheld: Boolean(m.invitation_withheld),
        optedOut: m.opted_out,
        lastFailure: m.last_failure,
        undeliverableCode: m.undeliverable_code,
        whatsappRefused: Boolean(m.whatsapp_refused),
      },
      now,
    ),
    ...toLoopMember(
      {
        id: Number(m.id),
        userId: Number(m.user_id),
        context: m.context,
        phoneNumber: m.phone_number,
        status: m.status,
        hasAccount: Boolean(m.has_account),
        organizer: Boolean(m.organizer),
        own: {
          firstName: m.first_name,
          lastName: m.last_name,
          email: m.email,
          messagingPreference: m.messaging_preference,
          newsletterDelivery: m.newsletter_delivery,
          emailStatus: m.email_status,
        },
        typed: {
          firstName: m.typed_first_name,
          lastName: m.typed_last_name,
          email: m.typed_email,
          messagingPreference: m.typed_messaging_preference,
        },
      },
      summary.creatorId,
      options.staffView,
    ),
    ...memberZone({
      // The person's own zone, like their name, once they said yes with an account (decision 0031).
      userTimeZone: showsOwnDetails(
        { status: m.status, hasAccount: Boolean(m.has_account), typed: { firstName: m.typed_first_name } },
        options.staffView,
      )
        ? m.user_time_zone
        : null,
      ownerTimeZone: m.owner_time_zone,
      phoneTimeZone: m.phone_time_zone,
      loopTimeZone: summary.timeZone,
      phoneNumber: m.phone_number,
      scheduledFor: m.scheduled_for,
    }),
  }));
  const shownMembers = memberList.map((member, i) => (contactOf(Number(memberRows[i]?.user_id)) ? member : namesOnly(member)));
  const updateList: LoopUpdate[] = parseJson(row.updates).map((u) => ({
    id: Number(u.id),
    userId: Number(u.user_id),
    content: u.content,
    createdAt: new Date(u.created_at).toISOString(),
    mediaUrls: (u.photos ?? []).map((p) => mediaUrl(p.key)),
    photos: (u.photos ?? []).map((p) => ({ url: mediaUrl(p.key), width: p.width, height: p.height, widths: p.widths })),
    clips: (u.clips ?? []).flatMap(
      (c) =>
        clipOf({
          storageKey: c.key,
          contentType: c.content_type,
          width: c.width,
          height: c.height,
          variants: c.variants,
          transcript: c.transcript,
        }) ?? [],
    ),
    user: authorName(
      { firstName: u.first_name, lastName: u.last_name, hasAccount: Boolean(u.has_account) },
      u.status === null ? null : { status: u.status, firstName: u.typed_first_name, lastName: u.typed_last_name },
      options.staffView,
    ),
  }));
  return {
    detail: { ...summary, role, members: shownMembers, updates: updateList },
    newsletters: row.newsletters === null ? [] : parseJson(row.newsletters).map(toLoopNewsletterRow),
  };
}

/** node-postgres parses json columns; PGlite may hand them over as text. */
function parseJson<T>(value: T[] | string): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}
