import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { ReminderEntry, Weekday } from '@loop/shared/constants';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const id = () => bigserial('id', { mode: 'number' }).primaryKey();
const ref = (name: string) => bigint(name, { mode: 'number' });
/** The Loop a row belongs to: it goes when the Loop is deleted. */
const loopRef = () =>
  ref('loop_id')
    .notNull()
    .references(() => loops.id, { onDelete: 'cascade' });
/** The person a row belongs to: it goes when their account is deleted. */
const userRef = () =>
  ref('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const messagingPreference = pgEnum('messaging_preference', ['sms', 'whatsapp']);
export const frequency = pgEnum('frequency', ['weekly', 'biweekly', 'monthly']);
export const newsletterStatus = pgEnum('newsletter_status', ['draft', 'sent']);
export const newsletterKind = pgEnum('newsletter_kind', ['newsletter', 'sneak_peek']);
export const messageDirection = pgEnum('message_direction', ['inbound', 'outbound']);
export const messageChannel = pgEnum('message_channel', ['sms', 'whatsapp', 'email', 'voice']);
/** How a member gets the newsletter (decision 0047): the text with the link, the e-mail, or both. */
export const newsletterDelivery = pgEnum('newsletter_delivery', ['text', 'email', 'both']);
/** Why an address gets no more e-mail (decision 0047). */
export const emailSuppressionReason = pgEnum('email_suppression_reason', ['unsubscribed', 'bounced', 'complained']);
/**
 * A membership someone else created is pending until the phone's holder says yes (decision 0015), to
 * that one Loop (decision 0035); `declined` when they said no: no invitation goes to it again.
 */
export const membershipStatus = pgEnum('membership_status', ['pending', 'active', 'declined']);

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-cased; null for text-only members who joined by invite without an email. */
    email: text('email'),
    /** argon2id; null for text-only members, who cannot sign in on the website. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    messagingPreference: messagingPreference('messaging_preference').notNull().default('sms'),
    /** Staff (docs/product.md#glossary): `isPrivileged` on the wire, as the SPEC names it. */
    isStaff: boolean('is_privileged').notNull().default(false),
    /**
     * When the holder last proved this phone with a texted code (sign-up, claim, password reset); null
     * for accounts made before codes and for text-only members. Only a proven holder answers
     * invitations on the website (decision 0035).
     */
    phoneProvenAt: timestamp('phone_proven_at', { withTimezone: true }),
    /**
     * The last WhatsApp text we received from this person: opens WhatsApp's 24-hour window for
     * free-form texts. SMS never opens it (the window is per channel); a 63016 closes it.
     */
    lastWhatsappInboundAt: timestamp('last_whatsapp_inbound_at', { withTimezone: true }),
    /**
     * When the person chose WhatsApp themselves (decision 0060): WhatsApp at sign-up or in their
     * Profile, or a text they sent Loop on WhatsApp. Until then every text goes by SMS, whatever
     * anyone else typed; a 63016 leaves it as it is.
     */
    whatsappOptedInAt: timestamp('whatsapp_opted_in_at', { withTimezone: true }),
    /** The IANA zone the person chose (Profile); wins over every other (decision 0036). */
    timeZone: text('time_zone'),
    /**
     * The phone number's zone when its country or area code has exactly one (libphonenumber's
     * time-zone map); '' when it has several or none; null until looked up.
     */
    phoneTimeZone: text('phone_time_zone'),
    /** Twilio said this number has no WhatsApp (63024): its texts went to SMS then, and the owner is told. */
    whatsappRefusedAt: timestamp('whatsapp_refused_at', { withTimezone: true }),
    /** The newsletter by text (the link), by e-mail, or both (decision 0047). */
    newsletterDelivery: newsletterDelivery('newsletter_delivery').notNull().default('text'),
    /**
     * The address (lower-case) whose holder followed a confirmation link, and when: the address is
     * confirmed while it equals `email`, so changing the address needs a new confirmation.
     */
    emailConfirmedAddress: text('email_confirmed_address'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** When the last confirmation e-mail was queued: one per address, until it is confirmed. */
    emailConfirmSentAt: timestamp('email_confirm_sent_at', { withTimezone: true }),
    /** The phone line's PIN (decision 0067): a keyed hash (services/calls/phone-pin.ts), never the digits. */
    phonePinHash: text('phone_pin_hash'),
    /** Wrong PINs said on calls since the last right one, the holder's own attested call or a new PIN. */
    phonePinFailures: integer('phone_pin_failures').notNull().default(0),
    /** Until then no PIN is taken on a call from this phone; attested calls and the website still work. */
    phonePinLockedUntil: timestamp('phone_pin_locked_until', { withTimezone: true }),
    /** The phone pressed 9 on a call: Loop places no calls to it (texts are unchanged). */
    callsOptedOutAt: timestamp('calls_opted_out_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Users whose phone's zone was never looked up: the scheduler fills them in.
    index('users_phone_time_zone_unset_idx')
      .on(t.id)
      .where(sql`${t.phoneTimeZone} is null`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_phone_number_key').on(t.phoneNumber),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    /** HMAC of the cookie token: the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userId: userRef(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

export const loops = pgTable(
  'loops',
  {
    id: id(),
    name: text('name').notNull(),
    context: text('context'),
    vibe: text('vibe')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    frequency: frequency('frequency').notNull().default('biweekly'),
    reminderSchedule: jsonb('reminder_schedule').$type<ReminderEntry[]>().notNull().default([]),
    /** IANA time zone in which reminders and newsletters are scheduled. */
    timeZone: text('time_zone').notNull().default('UTC'),
    creatorId: ref('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    paused: boolean('paused').notNull().default(false),
    /** The weekday a weekly or biweekly newsletter goes out (a monthly one: the month's last day), in the Loop's zone. */
    newsletterDay: text('newsletter_day').$type<Weekday>().notNull().default('sunday'),
    /** The time ("HH:MM") it goes out that day, in the Loop's zone. */
    newsletterTime: text('newsletter_time').notNull().default('18:00'),
    /** Owner's newsletter review (decision 0040): false sends each draft at its time, true waits for the owner's approval. */
    newsletterReview: boolean('newsletter_review').notNull().default(false),
    /**
     * The Loop’s cover photo: a photo of one of its updates, or one the owner
     * uploaded (a media row of no update). Deleting the photo (its update) takes the cover away.
     */
    coverMediaId: ref('cover_media_id').references((): AnyPgColumn => media.id, { onDelete: 'set null' }),
    /** The cover's words for those who cannot see it; empty: "Cover photo of {name}". */
    coverAlt: text('cover_alt').notNull().default(''),
    /** Kept by triggers on members and updates (migration 0002): lists and sorts read them, never count. */
    memberCount: integer('member_count').notNull().default(0),
    updateCount: integer('update_count').notNull().default(0),
    nextReminderAt: timestamp('next_reminder_at', { withTimezone: true }),
    nextNewsletterAt: timestamp('next_newsletter_at', { withTimezone: true }),
    /**
     * Kept by triggers (migration 0003): lower(name), lower(creator "first last") and lower(creator
     * email), joined by U+001F, for staff search with one trigram-indexed LIKE. Never written by code.
     */
    searchText: text('search_text').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('loops_creator_id_idx').on(t.creatorId),
    // Every list order ends with the id: these serve the sorts and their keyset cursors.
    index('loops_created_at_id_idx').on(t.createdAt, t.id),
    index('loops_member_count_idx').on(t.memberCount, t.id),
    // `name` as a last key (it changes no order: ids are unique) lets a deep `page=` by name be an
    // index-only scan: an expression index alone needs the table for every row it skips.
    index('loops_name_lower_id_name_idx').on(sql`lower(${t.name})`, t.id, t.name),
    index('loops_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('loops_next_reminder_at_idx').on(t.nextReminderAt),
    index('loops_next_newsletter_at_idx').on(t.nextNewsletterAt),
  ],
);

/**
 * What a Loop's reminders remember (decision 0043): the owner's own questions, the question the
 * last reminder asked (the next one asks another), and the newsletter whose "last call" went out
 * (so it goes once). One row per Loop, made when first needed.
 */
export const loopReminders = pgTable('loop_reminders', {
  loopId: ref('loop_id')
    .primaryKey()
    .references(() => loops.id, { onDelete: 'cascade' }),
  ownQuestions: text('own_questions')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  lastQuestion: text('last_question'),
  /** The `next_newsletter_at` the last call was sent (or skipped) for. */
  lastCallFor: timestamp('last_call_for', { withTimezone: true }),
});

/**
 * How many rows `loops` and `newsletters` hold, kept by statement triggers (migration 0003): the
 * exact X-Total-Count of the unsearched admin lists without counting every row.
 */
export const rowCounts = pgTable('row_counts', {
  tableName: text('table_name').primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull(),
});

export const members = pgTable(
  'members',
  {
    id: id(),
    loopId: loopRef(),
    userId: userRef(),
    context: text('context'),
    /**
     * The person as whoever added them typed it (owner, staff, or the invite page), shown in this
     * Loop until they said yes with an account of their own; null on rows made before (and the
     * creator's own): then the person's own (decision 0031).
     */
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    messagingPreference: messagingPreference('messaging_preference'),
    /** Only active memberships get texts or have texts routed to them. New rows are pending unless said otherwise. */
    status: membershipStatus('status').notNull().default('pending'),
    /** Who added this member (owner, staff, or the invite link's creator); null for the creator's own membership. */
    invitedById: ref('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** When the last invitation text was queued: pending expires 7 days after it; a resend waits a day. */
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    /**
     * No invitation text went out (the phone had opted out): only a YES that names this Loop, or
     * picks it from the "which Loop?" question, confirms it (decision 0033).
     */
    invitationWithheld: boolean('invitation_withheld').notNull().default(false),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The IANA zone the Loop's owner chose for this member; the member's own choice wins (decision 0036). */
    /** A co-organizer (decision 0059): the owner's rights on this Loop but deleting it and handing it over. */
    organizer: boolean('organizer').notNull().default(false),
    timeZone: text('time_zone'),
    /**
     * The token of this member's reply address, reply+{token}@MAIL_REPLY_DOMAIN (decision 0049):
     * 128 random bits in hex, made the first time an e-mail needs it; null until then.
     */
    replyToken: text('reply_token'),
    /** The invite link this person joined through (decision 0053): the owner sees recent joins by link. */
    inviteId: ref('invite_id').references(() => invites.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('members_loop_id_user_id_key').on(t.loopId, t.userId),
    index('members_invite_id_idx').on(t.inviteId),
    uniqueIndex('members_reply_token_key').on(t.replyToken),
    index('members_user_id_idx').on(t.userId),
    // A Loop's members oldest first: the admin detail reads the first page of a large Loop.
    index('members_loop_id_created_at_idx').on(t.loopId, t.createdAt, t.id),
  ],
);

/**
 * The "which Loop?" question a bare YES asks when several invitations are open (decision 0033):
 * one open question per phone, its choices in the order they were offered (membership ids). A
 * numbered reply is taken as a choice only while the question is open.
 */
export const consentQuestions = pgTable('consent_questions', {
  phoneNumber: text('phone_number').primaryKey(),
  membershipIds: jsonb('membership_ids').$type<number[]>().notNull(),
  askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Opt-out state per phone number (STOP / START), whether or not the phone belongs to a user. */
export const phoneOptOuts = pgTable('phone_opt_outs', {
  phoneNumber: text('phone_number').primaryKey(),
  optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
  /** What opted the phone out: a keyword, Twilio's OptOutType, or a provider error code. */
  reason: text('reason').notNull(),
});

/**
 * Phones the carrier says cannot receive texts (decision 0039): Twilio errors 30006 (a landline),
 * 30005 (an unknown number) and 21614 (not a mobile). Loop texts them no more (recipients.ts)
 * until the number is edited; the owner sees why.
 */
export const undeliverablePhones = pgTable('undeliverable_phones', {
  phoneNumber: text('phone_number').primaryKey(),
  errorCode: integer('error_code').notNull(),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-in, sign-up and join attempts per client address and per account, shared by every server
 * process (decision 0002). `key` is an HMAC of "form:kind:value", so the table names no email,
 * phone or address. A window starts at the first attempt; expired rows are deleted every minute.
 */
export const attemptCounts = pgTable(
  'attempt_counts',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('attempt_counts_window_ends_at_idx').on(t.windowEndsAt)],
);

export const invites = pgTable(
  'invites',
  {
    id: id(),
    loopId: loopRef(),
    code: text('code').notNull(),
    createdById: ref('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('invites_code_key').on(t.code), index('invites_loop_id_idx').on(t.loopId)],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    direction: messageDirection('direction').notNull(),
    channel: messageChannel('channel').notNull(),
    /** What the text is for: inbound, reply, welcome, reminder, newsletter, sneak_peek, group_message... */
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    body: text('body').notNull().default(''),
    mediaUrls: jsonb('media_urls').$type<string[]>().notNull().default([]),
    /** Inbound: received, processing, processed, ignored. Outbound: queued, sending, sent, delivered, undelivered, failed. */
    status: text('status').notNull(),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    idempotencyKey: text('idempotency_key'),
    loopId: ref('loop_id').references(() => loops.id, { onDelete: 'set null' }),
    userId: ref('user_id').references(() => users.id, { onDelete: 'set null' }),
    newsletterId: ref('newsletter_id').references(() => newsletters.id, { onDelete: 'set null' }),
    /** Raw provider parameters of an inbound message, kept for routing and audit. */
    raw: jsonb('raw').$type<Record<string, string>>(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A queued text that fell in the recipient's quiet hours waits until then (decision 0037). */
    notBefore: timestamp('not_before', { withTimezone: true }),
    /**
     * 1: a person is waiting for it (a code, an answer to their text); 0: bulk (invitations,
     * reminders, newsletters, group messages). Claims take the first before the second, with a
     * share kept for bulk (decision 0051).
     */
    priority: smallint('priority').notNull().default(0),
    /**
     * Set by the claim that takes a row back from `sending` (its lease ran out with no outcome
     * recorded): since when the last attempt may have reached the provider, who is asked before the
     * row is sent again (decision 0064). Null for a row claimed from `queued`.
     */
    inDoubtSince: timestamp('in_doubt_since', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_provider_message_id_key').on(t.providerMessageId),
    uniqueIndex('messages_idempotency_key_key').on(t.idempotencyKey),
    index('messages_status_next_attempt_idx').on(t.status, t.nextAttemptAt),
    index('messages_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('messages_loop_id_idx').on(t.loopId),
    // Delivery counts per newsletter (admin Loop detail) read this index alone.
    index('messages_newsletter_id_status_idx').on(t.newsletterId, t.status),
    index('messages_to_address_created_at_idx').on(t.toAddress, t.createdAt),
    // A phone's thread (simulator, staff) reads its inbound texts by sender.
    index('messages_from_address_created_at_idx').on(t.fromAddress, t.createdAt),
    // The retention sweep finds rows past MESSAGE_RETENTION_DAYS (decision 0058).
    index('messages_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Status callbacks for a MessageSid we have not recorded yet: Twilio may answer the callback
 * before our `sent` write commits (sends are recorded in groups). Applied as soon as the sid is
 * recorded (recordSent) or by the next sweep; rows that never match are deleted after a day.
 */
export const earlyStatuses = pgTable(
  'early_statuses',
  {
    id: id(),
    providerMessageId: text('provider_message_id').notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('early_statuses_provider_message_id_idx').on(t.providerMessageId),
    index('early_statuses_received_at_idx').on(t.receivedAt),
  ],
);

/**
 * Each sender's next free moment to send (decision 0017). Every process reserves its texts' time
 * slots here with one statement (messaging/pacer.ts), so all processes together send a sender's
 * texts at SEND_RATE_PER_SECOND. One row per sender address (an SMS number, a WhatsApp number, a
 * messaging service): a handful, never deleted.
 */
/**
 * Addresses Loop sends no e-mail to (decision 0047): the holder unsubscribed (RFC 8058 one-click or
 * the page), the receiving server refused it for good (SMTP 5xx) or a complaint came back. Every
 * send checks it (mail/outbox.ts when queueing, outbox/email/send-emails.ts when sending).
 */
export const emailSuppressions = pgTable('email_suppressions', {
  /** Lower-case. */
  address: text('address').primaryKey(),
  reason: emailSuppressionReason('reason').notNull(),
  /** The SMTP answer of a bounce, for the owner and staff. */
  detail: text('detail'),
  createdAt: createdAt(),
});

/**
 * The suppressions of deleted people's addresses (decision 0050), as hashed_opt_outs keeps deleted
 * phones' STOP: mail/suppression-hash.ts `suppressionHash` of the lower-case address, and why. Never
 * e-mailed again; the address itself is gone.
 */
export const hashedEmailSuppressions = pgTable('hashed_email_suppressions', {
  addressHash: text('address_hash').primaryKey(),
  reason: emailSuppressionReason('reason').notNull(),
  createdAt: createdAt(),
});

/**
 * Links sent by e-mail that work without signing in (decision 0047): `confirm` (double opt-in for
 * one user's address), `change` (an account's new address, theirs once confirmed: decision 0054)
 * and `unsubscribe` (one per address, the same in every e-mail to it). Only a
 * keyed hash of the token is stored (lib/tokens.ts hashToken).
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').$type<'confirm' | 'change' | 'unsubscribe'>().notNull(),
    /** Lower-case. */
    address: text('address').notNull(),
    /** Confirm: whose address it confirms. */
    userId: ref('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Confirm tokens expire; unsubscribe tokens never do (an old e-mail's link still works). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('email_tokens_address_idx').on(t.address)],
);

export const senderPaces = pgTable('sender_paces', {
  sender: text('sender').primaryKey(),
  nextFreeAt: timestamp('next_free_at', { withTimezone: true }).notNull(),
});

export const updates = pgTable(
  'updates',
  {
    id: id(),
    loopId: loopRef(),
    userId: userRef(),
    content: text('content').notNull().default(''),
    /** The inbound text this update came from. */
    messageId: ref('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('updates_loop_id_created_at_idx').on(t.loopId, t.createdAt),
    index('updates_user_id_idx').on(t.userId),
    uniqueIndex('updates_message_id_loop_id_key').on(t.messageId, t.loopId),
  ],
);

/**
 * One stored file of a media row: a size of a photo (WebP); for a voice memo or video (decision
 * 0023) the converted file itself, last, with its duration, after a video's poster sizes.
 */
export interface MediaVariant {
  width: number;
  height: number;
  key: string;
  bytes: number;
  /** Set on the converted voice memo or video only (the row's content type is its type). */
  durationMs?: number;
}

export const media = pgTable(
  'media',
  {
    id: id(),
    /** Null for a cover photo the owner uploaded (loops.cover_media_id), which belongs to no update. */
    updateId: ref('update_id').references(() => updates.id, { onDelete: 'cascade' }),
    /** Random, unguessable storage key; also the public path segment. */
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    position: integer('position').notNull().default(0),
    /** The picture's size: a photo's largest stored width, a video's frame; 0 until converted, and for voice memos. */
    width: integer('width').notNull().default(0),
    height: integer('height').notNull().default(0),
    /**
     * The stored sizes (WebP, smallest first), each under its own storage key. Empty for a photo
     * stored before the pipeline: the conversion at start fills it and deletes the original.
     */
    variants: jsonb('variants').$type<MediaVariant[]>().notNull().default([]),
    /**
     * A voice memo's words as the transcription model heard them (decision 0024), trimmed and at
     * most TRANSCRIPT_MAX_CHARS; null when it was not transcribed (no endpoint, a failure, a video).
     * Deleted with the row, so with its update.
     */
    transcript: text('transcript'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_storage_key_key').on(t.storageKey),
    index('media_update_id_idx').on(t.updateId),
    // The photos still to convert, found without reading the rest.
    index('media_unconverted_idx')
      .on(t.id)
      .where(sql`${t.variants} = '[]'::jsonb`),
    check('media_bytes_positive', sql`${t.bytes} >= 0`),
  ],
);

export const newsletters = pgTable(
  'newsletters',
  {
    id: id(),
    loopId: loopRef(),
    kind: newsletterKind('kind').notNull().default('newsletter'),
    status: newsletterStatus('status').notNull().default('draft'),
    urlId: text('url_id').notNull(),
    title: text('title').notNull().default(''),
    content: text('content').notNull(),
    /** Which writer wrote it, and whether the model failed and the template stood in. */
    writer: text('writer').notNull().default('template'),
    fellBack: boolean('fell_back').notNull().default(false),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A scheduled issue's send time (decision 0040); null for a draft made by hand. The owner may move it. */
    sendAt: timestamp('send_at', { withTimezone: true }),
    /** When the owner (or staff) approved the draft to go at `sendAt`. */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** When the owner (or staff) skipped this issue: it is never sent, its updates go to the next one. */
    skippedAt: timestamp('skipped_at', { withTimezone: true }),
    /** The send time whose "2 hours left" text the owner got, so it goes once per send time. */
    approvalReminderFor: timestamp('approval_reminder_for', { withTimezone: true }),
    /** The `send_at` whose 24-hour preview text went to the owner and organizers: any draft with a send time gets one per time. */
    previewTextFor: timestamp('preview_text_for', { withTimezone: true }),
    /** When a person last saved the draft's text; null while it is as the writer wrote it (an unedited
     * draft of an automatic Loop is written again at its time, with the updates that came since). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('newsletters_url_id_key').on(t.urlId),
    // The scheduler's scheduled drafts still to send (decision 0040).
    index('newsletters_scheduled_drafts_idx')
      .on(t.sendAt)
      .where(sql`${t.status} = 'draft' and ${t.skippedAt} is null and ${t.sendAt} is not null`),
    index('newsletters_loop_id_created_at_idx').on(t.loopId, t.createdAt),
    index('newsletters_sent_at_idx').on(t.sentAt),
    // The staff list of every newsletter, newest first (sent, else created), and its cursors.
    index('newsletters_newest_idx').on(sql`coalesce(${t.sentAt}, ${t.createdAt})`, t.id),
    // A Loop's last sent newsletter (Loop summaries).
    index('newsletters_loop_id_last_sent_idx')
      .on(t.loopId, t.sentAt)
      .where(sql`${t.status} = 'sent' and ${t.kind} = 'newsletter'`),
  ],
);

/**
 * A member's reaction to a sent newsletter (decision 0056): a short reply of praise or emoji by
 * text or e-mail within two days of it, or a tap on its page. Shown under the issue, never an update.
 */
export const reactions = pgTable(
  'reactions',
  {
    id: id(),
    newsletterId: ref('newsletter_id')
      .notNull()
      .references(() => newsletters.id, { onDelete: 'cascade' }),
    userId: userRef(),
    /** The reaction as sent ("Love it!!", "❤️"), at most 160 characters. */
    body: text('body').notNull(),
    /** The text or e-mail it came as; null for a tap on the page. */
    messageId: ref('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reactions_newsletter_id_user_id_body_key').on(t.newsletterId, t.userId, t.body),
    index('reactions_user_id_idx').on(t.userId),
  ],
);

export const phoneCodePurpose = pgEnum('phone_code_purpose', ['sign_up', 'reset_password', 'sign_in', 'change_phone']);

/**
 * Each code text Loop queued (decision 0051): where it went, coarsely (the number's prefix and
 * country, never the number), and whether its code was typed in. Codes sent and never used are
 * the signal of SMS pumping (Twilio Verify's Fraud Guard): counted per prefix and per country,
 * and for the whole service. Rows older than a day are deleted by the scheduler.
 */
export const codeTexts = pgTable(
  'code_texts',
  {
    id: id(),
    /** The E.164 number without its last four digits, e.g. +1628200. */
    prefix: text('prefix').notNull(),
    /** ISO 3166 code of the number's country, '' when none. */
    country: text('country').notNull(),
    /** The code's keyed hash (phone_codes.code_hash), to mark it used. */
    codeHash: text('code_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('code_texts_prefix_sent_at_idx').on(t.prefix, t.sentAt),
    index('code_texts_country_sent_at_idx').on(t.country, t.sentAt),
    index('code_texts_sent_at_idx').on(t.sentAt),
    index('code_texts_code_hash_idx').on(t.codeHash),
  ],
);

/**
 * One-time codes texted to a phone (services/phone-codes). One live code per phone and purpose:
 * a new code replaces the old one. Only an HMAC of the code is kept; the row is deleted when the
 * code is used, and expired rows are deleted by the scheduler.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: id(),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    purpose: phoneCodePurpose('purpose').notNull(),
    /** HMAC-SHA256 of "purpose:phone:code" under SESSION_SECRET. */
    codeHash: text('code_hash').notNull(),
    /** Wrong codes tried against this one; at the limit it no longer checks out. */
    tries: integer('tries').notNull().default(0),
    /**
     * What the code will complete: a sign-up's form (password as its argon2id hash), or the
     * account a reset is for. Never shown to anyone.
     */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * HMAC-SHA256 of the secret the browser that asked for the code holds (an HttpOnly cookie):
     * the code works only with it, and only that browser may change or resend it (decision 0027);
     * other browsers' codes for the phone are other rows (decision 0060).
     */
    holderHash: text('holder_hash'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One code per browser for a phone and purpose (decision 0060), found by the holder's hash.
    uniqueIndex('phone_codes_phone_number_purpose_holder_key').on(t.phoneNumber, t.purpose, t.holderHash),
    index('phone_codes_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * A text to every member of a Loop, typed by its owner or by staff (decision 0042): sent at once
 * or at `sendAt`. Its texts are `messages` rows of kind group_message keyed
 * `group_message:{id}:{memberId}`, which is where its delivery is counted. `scheduled` until the
 * scheduler (or the request, for "now") queues them and marks it `sent`; the owner may cancel it
 * before that.
 */
export const groupMessageStatus = pgEnum('group_message_status', ['scheduled', 'sent', 'cancelled']);
export const groupMessages = pgTable(
  'group_messages',
  {
    id: id(),
    loopId: loopRef(),
    /** Who typed it; null once their account is deleted (the Loop keeps its history). */
    senderId: ref('sender_id').references(() => users.id, { onDelete: 'set null' }),
    /** The first name the texts carry, as it was when it was typed. */
    senderName: text('sender_name').notNull(),
    message: text('message').notNull(),
    status: groupMessageStatus('status').notNull().default('scheduled'),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Texts queued when it was sent (members who could be texted then). */
    textsQueued: integer('texts_queued').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('group_messages_loop_id_created_at_idx').on(t.loopId, t.createdAt),
    // The scheduler's due ones.
    index('group_messages_due_idx')
      .on(t.sendAt)
      .where(sql`${t.status} = 'scheduled'`),
  ],
);

/**
 * A deleted account's phone, or one that erased what it sent by text (decision 0045), kept only as
 * `optOutHash(phone)` (messaging/opt-outs.ts): Loop never texts it again until it texts START,
 * and keeps no number in the clear. Kept for as long as Loop runs: it is the opt-out itself.
 */
export const hashedOptOuts = pgTable('hashed_opt_outs', {
  phoneHash: text('phone_hash').primaryKey(),
  optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
  /** Why: 'account_deleted' or 'erased_by_text'. */
  reason: text('reason').notNull(),
});

/**
 * A text-only member's DELETE waiting for its confirmation (decision 0045): the code the reply
 * texted, as a keyed hash; "DELETE <code>" from the same phone before `expiresAt` erases what it
 * sent. One per phone; a second DELETE replaces it. Deleted when used or expired.
 */
export const erasureRequests = pgTable('erasure_requests', {
  phoneNumber: text('phone_number').primaryKey(),
  codeHash: text('code_hash').notNull(),
  askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const dataExportStatus = pgEnum('data_export_status', ['building', 'ready', 'failed']);

/**
 * "Download my data" (decision 0045): one zip per request, built in the background
 * (services/exports), offered for 24 hours from when it is ready, then its file and row are
 * deleted. At most one building per person (the partial unique index).
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    userId: userRef(),
    status: dataExportStatus('status').notNull().default('building'),
    /** Set while a process builds it; a build whose lease ran out is taken again. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** The zip in MediaStorage, once ready. Never under /media: the route serves media rows only. */
    storageKey: text('storage_key'),
    bytes: integer('bytes'),
    createdAt: createdAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('data_exports_user_id_idx').on(t.userId, t.createdAt),
    uniqueIndex('data_exports_one_building_key')
      .on(t.userId)
      .where(sql`${t.status} = 'building'`),
    index('data_exports_expires_at_idx').on(t.expiresAt),
  ],
);
