/**
 * Quiet hours: the part of the day, in the recipient's own time, when Loop starts no texts
 * (TCPA, 47 CFR 64.1200(c)(1): no calls or texts before 8 am or after 9 pm local time). The
 * server's QUIET_HOURS setting ("21:00-08:00", or "off"); the reminder-time picker offers only
 * the times this allows.
 */
export interface QuietHours {
  /** "HH:MM" when quiet hours begin (21:00). */
  start: string;
  /** "HH:MM" when they end and texts may go again (08:00). */
  end: string;
}

export const DEFAULT_QUIET_HOURS = '21:00-08:00';

/** A reminder goes out within this many minutes of its time (the sweep, then the pace): none may start closer to quiet hours. */
export const REMINDER_LEAD_MINUTES = 30;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "21:00-08:00" → { start, end }; "off" → null; anything else → undefined. */
export function parseQuietHours(value: string): QuietHours | null | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'off') return null;
  const [start = '', end = '', ...rest] = text.split('-').map((part) => part.trim());
  if (rest.length > 0 || !TIME.test(start) || !TIME.test(end) || start === end) return undefined;
  return { start, end };
}

/** Minutes after midnight of "HH:MM". */
export function minutesOf(time: string): number {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return hour * 60 + minute;
}

/** Whether a local time of day (minutes after midnight) falls in quiet hours. */
export function isQuietMinute(minute: number, quiet: QuietHours | null): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const m = ((minute % 1440) + 1440) % 1440;
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/**
 * Whether a reminder at "HH:MM" is allowed: neither it nor the REMINDER_LEAD_MINUTES after it
 * falls in quiet hours (21:00-08:00: 08:00 to 20:30).
 */
export function reminderTimeAllowed(time: string, quiet: QuietHours | null): boolean {
  const at = minutesOf(time);
  for (let m = at; m < at + REMINDER_LEAD_MINUTES; m++) if (isQuietMinute(m, quiet)) return false;
  return true;
}

/** Every reminder time the picker offers: a 5-minute step, within the allowed hours. */
export function reminderTimeOptions(quiet: QuietHours | null): string[] {
  const times: string[] = [];
  for (let m = 0; m < 1440; m += 5) {
    if (reminderTimeAllowed(clockOf(m), quiet)) times.push(clockOf(m));
  }
  return times;
}

/** "HH:MM" of minutes after midnight (any day). */
function clockOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The first and last reminder times allowed: quiet hours' end, and 30 minutes before their start (08:00, 20:30). */
export function reminderTimeRange(quiet: QuietHours): { from: string; to: string } {
  return { from: quiet.end, to: clockOf(minutesOf(quiet.start) - REMINDER_LEAD_MINUTES) };
}

/** "Reminder times must be from 08:00 to 20:30: no texts during quiet hours (21:00-08:00 in each member's own time)". */
export function reminderTimesMessage(quiet: QuietHours | null): string {
  if (!quiet) return 'Reminder time must be HH:MM';
  const { from, to } = reminderTimeRange(quiet);
  return `Reminder times must be from ${from} to ${to}: no texts during quiet hours (${quiet.start}-${quiet.end} in each member's own time)`;
}
