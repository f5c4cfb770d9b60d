import { clipSchema, photoSchema } from './media';
import { z } from 'zod';
import { emailSchema, messagingPreferenceSchema, newsletterDeliverySchema, personNameSchema, phoneNumberSchema } from './auth';
import {
  DEFAULT_FREQUENCY,
  EMAIL_NEEDED_MESSAGE,
  EMAIL_STATUSES,
  DEFAULT_REMINDER_SCHEDULE,
  FREQUENCIES,
  LIMITS,
  MESSAGING_PREFERENCES,
  NEWSLETTER_DELIVERIES,
  VIBES,
  WEEKDAYS,
  type EmailStatus,
  type Frequency,
  type MessagingPreference,
  type NewsletterDelivery,
  type ReminderEntry,
  type Weekday,
} from './constants';
import { quotedNameSchema } from './quoted-name';
import { controlCharactersMessage, hasNoControlCharacters } from './text';
import { timeZoneSchema } from './time-zone';

export const VIBE_REQUIRED_MESSAGE = 'Please select at least one newsletter vibe';

export const vibeSchema = z
  .array(z.enum(VIBES, { error: `Vibe must be one of: ${VIBES.join(', ')}` }), { error: VIBE_REQUIRED_MESSAGE })
  .min(1, VIBE_REQUIRED_MESSAGE)
  .max(VIBES.length, `Vibe has at most ${VIBES.length} entries`)
  .transform((list) => [...new Set(list)]);

// Invitations and reminders quote it: a name must not be a lure (a link, a number to call).
export const loopNameSchema = quotedNameSchema('Loop name', LIMITS.loopName);

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoControlCharacters, controlCharactersMessage(label))
    .nullish()
    .transform((v) => (v ? v : null));

export const contextSchema = optionalText('Group context', LIMITS.context);

/** "HH:MM" on a 5-minute step, 00:00 to 23:55. */
export const reminderTimeSchema = z
  .string({ error: 'Reminder time must be text' })
  .regex(/^([01]\d|2[0-3]):[0-5][05]$/, 'Reminder time must be HH:MM on a 5-minute step, from 00:00 to 23:55');

/** The newsletter's time of day, as a reminder's: "HH:MM" on a 5-minute step. */
export const newsletterTimeSchema = z
  .string({ error: 'Newsletter time must be text' })
  .regex(/^([01]\d|2[0-3]):[0-5][05]$/, 'Newsletter time must be HH:MM on a 5-minute step, from 00:00 to 23:55');

export const reminderScheduleSchema = z
  .array(
    z.object({
      day: z.enum(WEEKDAYS, { error: 'Reminder day must be a weekday name such as "monday"' }),
      time: reminderTimeSchema,
    }),
    { error: 'Reminder schedule must be a list of {day, time}' },
  )
  .max(LIMITS.reminderEntries, `Reminder schedule has at most ${LIMITS.reminderEntries} entries`)
  .refine((entries) => new Set(entries.map((e) => e.day)).size === entries.length, {
    message: 'Reminder schedule has a weekday twice: give each day one time',
  })
  .transform((entries) => [...entries].sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day)));

export const frequencySchema = z.enum(FREQUENCIES, { error: 'Frequency must be weekly, biweekly or monthly' });

export const createLoopSchema = z.object({
  name: loopNameSchema,
  context: contextSchema,
  vibe: vibeSchema,
  /** Must be the signed-in user when given: the server never trusts it. */
  creatorId: z.number({ error: 'creatorId must be a number' }).int().optional(),
  frequency: frequencySchema.default(DEFAULT_FREQUENCY),
  reminderSchedule: reminderScheduleSchema.default(() => [...DEFAULT_REMINDER_SCHEDULE]),
  timeZone: timeZoneSchema.default('UTC'),
});
export type CreateLoopInput = z.input<typeof createLoopSchema>;

/** PUT /api/loops/{id}: any of these; every other field of a merged Loop is ignored. */
export const updateLoopSchema = z.object({
  name: loopNameSchema.optional(),
  context: contextSchema.optional(),
  vibe: vibeSchema.optional(),
  reminderSchedule: reminderScheduleSchema.optional(),
  timeZone: timeZoneSchema.optional(),
  /** true: no reminders or newsletters go out until it is false again (the owner's or staff's Settings). */
  paused: z.boolean({ error: 'paused must be true (pause the Loop) or false (resume it)' }).optional(),
  frequency: frequencySchema.optional(),
  /** The weekday a weekly or biweekly newsletter goes out, in the Loop's zone (a monthly one: the month's last day). */
  newsletterDay: z.enum(WEEKDAYS, { error: 'Newsletter day must be a weekday name such as "sunday"' }).optional(),
  newsletterTime: newsletterTimeSchema.optional(),
  /** false: each newsletter goes out at its time after the owner's preview text; true: only once the owner approves it (decision 0040). */
  newsletterReview: z
    .boolean({ error: 'newsletterReview must be true (let me approve it first) or false (send automatically)' })
    .optional(),
});
export type UpdateLoopInput = z.input<typeof updateLoopSchema>;

/** The largest cover photo upload, base64 (a 5 MB photo, as texts may carry). */
export const COVER_UPLOAD_MAX_BASE64 = Math.ceil((5 * 1024 * 1024) / 3) * 4;
const COVER_ALT_MAX = 200;

/**
 * PUT /api/loops/{id}/cover (owner, co-organizers, staff): the Loop's cover photo, either one of
 * its updates' photos (`mediaUrl`, as the update lists it) or a photo uploaded as base64 (`photo`),
 * with optional words for those who cannot see it (`alt`; alone, it describes the cover there is).
 */
export const setCoverSchema = z
  .object({
    mediaUrl: z
      .string({ error: 'mediaUrl must be the address of one of this Loop’s photos, such as /media/…' })
      .regex(/^\/media\/[A-Za-z0-9_-]{43}$/, 'mediaUrl must be the address of one of this Loop’s photos, such as /media/…')
      .optional(),
    photo: z
      .string({ error: 'photo must be the photo’s bytes in base64' })
      .max(COVER_UPLOAD_MAX_BASE64, 'The photo is larger than 5 MB: choose a smaller one.')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'photo must be the photo’s bytes in base64')
      .optional(),
    alt: z
      .string({ error: 'alt must be text' })
      .trim()
      .max(COVER_ALT_MAX, `The description must be at most ${COVER_ALT_MAX} characters`)
      .optional(),
  })
  .refine((v) => !(v.mediaUrl !== undefined && v.photo !== undefined) && (v.mediaUrl ?? v.photo ?? v.alt) !== undefined, {
    message: 'Send mediaUrl (one of this Loop’s photos) or photo (a new one), not both; or alt alone to describe the cover.',
  });
export type SetCoverInput = z.input<typeof setCoverSchema>;

/** The Loop's cover photo as pages show it: its largest size, drawn at width × height, and its words. */
export interface LoopCover {
  url: string;
  width: number;
  height: number;
  alt: string;
}
export const loopCoverSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string() });

/** An email, or nothing ('' and null too). Not a union: its own messages (length, format) reach the person. */
const optionalEmail = z
  .string({ error: 'Email must be a valid email address, or left empty' })
  .trim()
  .toLowerCase()
  .max(LIMITS.email, `Email must be at most ${LIMITS.email} characters`)
  .refine((v) => v === '' || emailSchema.safeParse(v).success, 'Email must be a valid email address')
  .nullish()
  .transform((v) => (v ? v : null));

export const memberContextSchema = optionalText('Member context', LIMITS.context);

/** The newsletter by e-mail (alone or with texts) needs an e-mail address: a refinement of a person's fields. */
const emailWhereNeeded: [(input: { newsletterDelivery: string; email: string | null }) => boolean, { message: string; path: string[] }] = [
  (input) => input.newsletterDelivery === 'text' || input.email !== null,
  { message: EMAIL_NEEDED_MESSAGE, path: ['email'] },
];

export const addMemberSchema = z
  .object({
    firstName: personNameSchema('First name'),
    lastName: personNameSchema('Last name'),
    email: optionalEmail,
    phoneNumber: phoneNumberSchema,
    messagingPreference: messagingPreferenceSchema.default('sms'),
    context: memberContextSchema,
    /** The newsletter by text, e-mail or both (decision 0047); e-mail needs `email`, which gets one confirmation link. */
    newsletterDelivery: newsletterDeliverySchema.default('text'),
  })
  .refine(...emailWhereNeeded);
export type AddMemberInput = z.input<typeof addMemberSchema>;

/**
 * PUT /api/loops/{id}/members/{memberId}: any of these. The context is the Loop's own note
 * about the member; the name and messaging preference as this Loop shows them may change while
 * the invitation is pending and for a member without an account, never an account holder's who
 * said yes (`LoopMember.detailsEditable`).
 */
export const updateMemberSchema = z
  .object({
    firstName: personNameSchema('First name').optional(),
    lastName: personNameSchema('Last name').optional(),
    messagingPreference: messagingPreferenceSchema.optional(),
    /** A new number is asked again: the membership is pending until it says YES. */
    phoneNumber: phoneNumberSchema.optional(),
    context: memberContextSchema.optional(),
    /** The member's time zone as the owner sets it; null goes back to their phone's or the Loop's. */
    timeZone: timeZoneSchema.nullable().optional(),
    /** The owner (or staff) makes a member who said yes and has an account a co-organizer, or not (decision 0059). */
    organizer: z.boolean({ error: 'organizer must be true (make them an organizer) or false' }).optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'Send at least one of firstName, lastName, messagingPreference, phoneNumber, context, timeZone or organizer',
  });

/** PUT /api/loops/{id}/owner: hands the Loop over to one of its organizers (decision 0059). */
export const transferLoopSchema = z.object({
  memberId: z.number({ error: 'memberId must be the id of the member who takes the Loop over' }).int().positive(),
});
export type UpdateMemberInput = z.input<typeof updateMemberSchema>;

export const joinLoopSchema = z
  .object({
    firstName: personNameSchema('First name'),
    lastName: personNameSchema('Last name'),
    email: optionalEmail,
    phoneNumber: phoneNumberSchema,
    messagingPreference: messagingPreferenceSchema.default('sms'),
    /** The newsletter by text, e-mail or both (decision 0047); e-mail needs `email`, which gets one confirmation link. */
    newsletterDelivery: newsletterDeliverySchema.default('text'),
  })
  .refine(...emailWhereNeeded);
export type JoinLoopInput = z.input<typeof joinLoopSchema>;

/** A numeric id in a path: "/loops/12". */
export const idParamSchema = z.coerce
  .number({ error: 'The id must be a number' })
  .int('The id must be a whole number')
  .positive('The id must be a positive number')
  .max(Number.MAX_SAFE_INTEGER, 'The id is too large');

/** The viewer's role on a Loop; `organizer` is a co-organizer (decision 0059): the owner's rights but deleting the Loop and handing it over. */
export type LoopRole = 'owner' | 'organizer' | 'staff' | 'member';
export const LOOP_ROLES = ['owner', 'organizer', 'staff', 'member'] as const;

export interface LoopSummary {
  id: number;
  name: string;
  context: string | null;
  vibe: string[];
  frequency: Frequency;
  reminderSchedule: ReminderEntry[];
  timeZone: string;
  creatorId: number;
  createdAt: string;
  paused: boolean;
  /** The weekday a weekly or biweekly newsletter goes out (a monthly one: the month's last day), in the Loop's zone. */
  newsletterDay: Weekday;
  /** The time ("HH:MM") it goes out, in the Loop's zone. */
  newsletterTime: string;
  /** Newsletter: false sends automatically (after the owner's preview text), true waits for the owner's approval. */
  newsletterReview: boolean;
  creator: { firstName: string; lastName: string; email: string | null };
  memberCount: number;
  updateCount: number;
  lastNewsletter: string | null;
}

/**
 * Where a membership stands (decisions 0015 and 0035): `pending` until the phone's holder says yes to
 * the invitation, `expired` when 7 days passed without it, `active` once they said yes (or made the
 * Loop), `declined` when they said no, `not_invited` when no invitation went because the phone had
 * opted out, `opted_out` when the phone texted STOP, `undeliverable` when the carrier said the number
 * cannot receive texts (a landline, an unknown number: Loop stops texting it until the number is
 * edited; decision 0039), `failing` when the last text to it failed.
 */
export const MEMBER_STATES = ['active', 'pending', 'expired', 'declined', 'not_invited', 'opted_out', 'undeliverable', 'failing'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export interface LoopMember {
  id: number;
  /** The person's id once they said yes to this Loop (staff: always); null while pending, so adding a phone tells nothing of it. */
  userId: number | null;
  context: string | null;
  isCreator: boolean;
  /** A co-organizer (decision 0059), made so by the owner. */
  organizer: boolean;
  /**
   * Whether the Loop's owner may change the member's name and messaging preference as this Loop
   * shows them: while the invitation is pending (what the owner typed), and for a member without
   * an account of their own; never an account holder's who said yes. Context is always editable.
   */
  detailsEditable: boolean;
  user: {
    firstName: string;
    lastName: string;
    /** Null to a plain member for anyone but themselves: members see names, the owner and staff contact details (decision 0054). */
    phoneNumber: string | null;
    /** Null as phoneNumber is, or when there is none. */
    email: string | null;
    messagingPreference: MessagingPreference;
    /** The newsletter by text, e-mail or both (decision 0047). */
    newsletterDelivery: NewsletterDelivery;
    /** Where the shown address stands: the owner sees "not confirmed" and "bouncing". */
    emailStatus: EmailStatus;
  };
  state: MemberState;
  /** When the last invitation was sent (pending, expired), else null. */
  invitedAt: string | null;
  /** When the invitation may be sent again (pending or expired, not opted out), else null. */
  resendAt: string | null;
  /** Why texts to this member fail, in words (states `failing` and `undeliverable`), else null. */
  lastError: string | null;
  /** The IANA zone their texts follow (reminders at the schedule's time there; quiet hours). */
  timeZone: string;
  /**
   * Where `timeZone` comes from: the member's own choice, the owner's, their phone number's, or the
   * Loop's; 'country': the Loop's, and texts go only while it is daytime in every zone of the phone's country.
   */
  timeZoneSource: TimeZoneSource;
  /** With 'country': the phone's country (ISO 3166 code, "AU"), else null. */
  timeZoneCountry: string | null;
  /** The zone the Loop's owner chose for them (member edit), else null. */
  ownerTimeZone: string | null;
  /** When their texts waiting out quiet hours go (their 08:00), else null. */
  scheduledFor: string | null;
  /** Something the owner should know about how texts reach them (WhatsApp refused: SMS now), else null. */
  deliveryNote: string | null;
}

export const TIME_ZONE_SOURCES = ['member', 'owner', 'phone', 'loop', 'country'] as const;
export type TimeZoneSource = (typeof TIME_ZONE_SOURCES)[number];

/** POST /api/loops/{id}/members: the new member, and what the adder should know (an opted-out phone). */
export interface AddMemberAnswer extends LoopMember {
  notice: string | null;
}

/** The notice for a phone that texted STOP: nothing was sent to it. */
export const OPTED_OUT_NOTICE = 'This number has opted out of Loop texts, so no invitation was sent. They can rejoin by texting START.';

/** An update as the Loop's Updates tab and the admin detail show it (the response schema of their routes). */
export const loopUpdateSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  /** What the member typed (a voice memo's words are its clip's `transcript`). */
  content: z.string(),
  createdAt: z.string(),
  /** The photos' /media/ paths (the largest size), as `photos[].url`. */
  mediaUrls: z.array(z.string()),
  photos: z.array(photoSchema),
  /** Its voice memos and videos (decision 0023), each with its length and a voice memo's transcript (0024). */
  clips: z.array(clipSchema),
  user: z.object({ firstName: z.string(), lastName: z.string() }),
});
export type LoopUpdate = z.output<typeof loopUpdateSchema>;

const nullableText = z.string().nullable();

/**
 * GET /api/loops/{id} as the OpenAPI document describes it (decision 0018) and as the server
 * checks it when it answers: LoopDetail, field for field (a field it does not list is not sent).
 */
export const loopDetailResponseSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  context: nullableText,
  vibe: z.array(z.string()),
  frequency: z.enum(FREQUENCIES),
  reminderSchedule: z.array(z.object({ day: z.enum(WEEKDAYS), time: z.string() })),
  timeZone: z.string(),
  creatorId: z.number().int(),
  createdAt: z.string(),
  paused: z.boolean(),
  newsletterDay: z.enum(WEEKDAYS),
  newsletterTime: z.string(),
  newsletterReview: z
    .boolean()
    .describe('false: the newsletter sends automatically at its time; true: it waits for the owner to approve it'),
  creator: z.object({ firstName: z.string(), lastName: z.string(), email: nullableText }),
  memberCount: z.number().int(),
  updateCount: z.number().int(),
  lastNewsletter: nullableText,
  role: z.enum(LOOP_ROLES),
  members: z.array(
    z.object({
      id: z.number().int(),
      userId: z.number().int().nullable(),
      context: nullableText,
      isCreator: z.boolean(),
      organizer: z.boolean(),
      detailsEditable: z.boolean(),
      user: z.object({
        firstName: z.string(),
        lastName: z.string(),
        phoneNumber: z
          .string()
          .nullable()
          .describe("null to a plain member for anyone but themselves: only the owner and staff see others' contact details"),
        email: nullableText,
        messagingPreference: z.enum(MESSAGING_PREFERENCES),
        newsletterDelivery: z.enum(NEWSLETTER_DELIVERIES),
        emailStatus: z.enum(EMAIL_STATUSES),
      }),
      state: z.enum(MEMBER_STATES),
      invitedAt: nullableText,
      resendAt: nullableText,
      lastError: nullableText,
      timeZone: z.string(),
      timeZoneSource: z.enum(TIME_ZONE_SOURCES),
      timeZoneCountry: nullableText,
      ownerTimeZone: nullableText,
      scheduledFor: nullableText,
      deliveryNote: nullableText,
    }),
  ),
  updates: z.array(loopUpdateSchema).describe('the newest updates first, with their photos, voice memos and videos'),
  cover: loopCoverSchema.nullable().describe('the Loop’s cover photo, or null').optional(),
});

export interface LoopDetail extends LoopSummary {
  /** What the signed-in viewer is to this Loop: decides which actions the page offers. */
  role: LoopRole;
  members: LoopMember[];
  updates: LoopUpdate[];
  /** The Loop's cover photo (public page, e-mail, print); null when it has none. */
  cover?: LoopCover | null;
}

export interface CreateLoopAnswer extends LoopSummary {
  /** 'simulated': texts work but stay in the Phone Simulator; 'disabled' (docs/product.md#api-calls): texts are off. */
  smsStatus: 'enabled' | 'simulated' | 'disabled';
  /** When the first newsletter goes out, on the Loop's schedule in its time zone. */
  nextNewsletterAt: string;
}

export interface InviteAnswer {
  inviteUrl: string;
  code: string;
  expiresAt: string;
}

/**
 * GET /api/loops/{id}/invite (owner and staff): the Loop's live invite link, who joined through
 * its links lately, and the links' limits (decision 0053). A new link stops the old one.
 */
export interface InviteLinkStatus {
  link: InviteAnswer | null;
  /** Joins through the Loop's links in the last 7 days, newest first (at most 50): the names they typed. */
  recentJoins: { memberId: number; firstName: string; lastName: string; joinedAt: string; status: string }[];
  limits: { perHour: number; perDay: number };
}

export interface InvitePreview {
  loopName: string;
  expiresAt: string;
  /** The first name of who made the link (else the Loop's owner); null when it is not known. */
  invitedBy: string | null;
}

/** POST /api/invites/{code}/join: the same whether or not the phone was in the Loop already (no membership lookups). */
export interface JoinAnswer {
  ok: true;
  loopId: number;
  loopName: string;
}
