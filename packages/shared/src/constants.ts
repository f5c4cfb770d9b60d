/** Business constants (docs/product.md#limits-and-timings), shared by the server and the web app. */

export const MESSAGING_PREFERENCES = ['sms', 'whatsapp'] as const;
export type MessagingPreference = (typeof MESSAGING_PREFERENCES)[number];

/** How a member gets the newsletter (decision 0047): the text with the link, the e-mail, or both. */
export const NEWSLETTER_DELIVERIES = ['text', 'email', 'both'] as const;
export type NewsletterDelivery = (typeof NEWSLETTER_DELIVERIES)[number];
/**
 * Where a person's address stands (decision 0047): none (no address), unconfirmed (the
 * confirmation link was not followed yet), confirmed, unsubscribed (or a complaint), bouncing
 * (the receiving server refused it for good).
 */
export const EMAIL_STATUSES = ['none', 'unconfirmed', 'confirmed', 'unsubscribed', 'bouncing'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
/** The answer when e-mail delivery is chosen without an address. */
export const EMAIL_NEEDED_MESSAGE = 'Add an email address first to get the newsletter by email.';

export const VIBES = ['family', 'friends', 'parents', 'co-workers', 'solo', 'fun', 'casual', 'funny', 'formal', 'deep'] as const;
export type Vibe = (typeof VIBES)[number];

export const FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const DEFAULT_FREQUENCY: Frequency = 'biweekly';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ReminderEntry {
  day: Weekday;
  time: string;
}
export const DEFAULT_REMINDER_SCHEDULE: readonly ReminderEntry[] = [
  { day: 'thursday', time: '09:00' },
  { day: 'sunday', time: '17:00' },
];
export const NEW_REMINDER_TIME = '09:00';
/** When a newsletter goes out, in the Loop's zone: the weekday (weekly, biweekly; a monthly one goes the month's last day) and time. */
export const DEFAULT_NEWSLETTER_DAY: Weekday = 'sunday';
export const DEFAULT_NEWSLETTER_TIME = '18:00';
export const REMINDER_STEP_MINUTES = 5;

export const ADMIN_SORTS = ['recent', 'name', 'members'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];

export const INVITE_TTL_DAYS = 7;
export const DEFAULT_PHONE_COUNTRY = 'US';
export const PHONE_MAX_DIGITS = 15;

/**
 * Input limits (docs/product.md#input-rules): every one is checked by a shared zod schema or by
 * the server, and answered with a 400 (413 for bytes) that says which limit was hit.
 */
export const LIMITS = {
  passwordMin: 8,
  passwordMax: 200,
  /** First and last names of users and members. */
  name: 100,
  email: 254,
  /** A phone number as typed (spaces, dashes, brackets); E.164 itself has at most 15 digits. */
  phone: 32,
  loopName: 100,
  /** Group context and member context. */
  context: 2000,
  /** A group message from staff, and a simulated text: Twilio's 1,600-character maximum. */
  message: 1600,
  newsletter: 100_000,
  /** One entry per weekday. */
  reminderEntries: 7,
  /** Admin search box. */
  search: 200,
  /** Bytes of a JSON request body (the simulator's photos and clips come as files: SIMULATOR_LIMITS). */
  requestBytes: 1024 * 1024,
  /**
   * Arrays and objects inside one another in a JSON body: Loop's deepest needs 3; a body deeper
   * than this is refused before it is parsed (decision 0032).
   */
  jsonDepth: 32,
  /** Bytes of a Twilio webhook form. */
  webhookBytes: 64 * 1024,
} as const;
