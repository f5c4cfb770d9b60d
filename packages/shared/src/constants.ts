/** Business constants of SPEC §5 and §9, shared by the server and the web app. */

export const MESSAGING_PREFERENCES = ['sms', 'whatsapp'] as const;
export type MessagingPreference = (typeof MESSAGING_PREFERENCES)[number];

export const VIBES = [
  'family',
  'friends',
  'parents',
  'co-workers',
  'solo',
  'fun',
  'casual',
  'funny',
  'formal',
  'deep',
] as const;
export type Vibe = (typeof VIBES)[number];

export const FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const DEFAULT_FREQUENCY: Frequency = 'biweekly';

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
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
export const REMINDER_STEP_MINUTES = 5;

export const ADMIN_SORTS = ['recent', 'name', 'members'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];

export const INVITE_TTL_DAYS = 7;
export const DEFAULT_PHONE_COUNTRY = 'US';
export const PHONE_MAX_DIGITS = 15;

export const LIMITS = {
  passwordMin: 8,
  passwordMax: 200,
  name: 100,
  email: 254,
  loopName: 100,
  context: 2000,
  message: 1600,
  newsletter: 100_000,
  reminderEntries: 7,
} as const;
