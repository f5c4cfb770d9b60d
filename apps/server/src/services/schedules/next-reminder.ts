import { WEEKDAYS, type ReminderEntry } from '@loop/shared/constants';
import { addDays, formatDate, fromLocal, toLocal, weekdayIndex } from '../../lib/local-time';

export interface ReminderSlot {
  at: Date;
  /** The local date and time of the slot, e.g. "2026-03-08T02:30": part of each text's idempotency key. */
  slot: string;
}

/** The slots of the schedule on the local date `days` after the one `around` falls on, in `timeZone`. */
function slotsOnDay(schedule: readonly ReminderEntry[], timeZone: string, around: Date, days: number): ReminderSlot[] {
  const date = addDays(toLocal(around, timeZone), days);
  const weekday = WEEKDAYS[weekdayIndex(date.year, date.month, date.day)];
  return schedule
    .filter((entry) => entry.day === weekday)
    .map((entry) => {
      const [hour = 0, minute = 0] = entry.time.split(':').map(Number);
      return { at: fromLocal({ ...date, hour, minute }, timeZone), slot: `${formatDate(date)}T${entry.time}` };
    });
}

/** The first reminder slot strictly after `after`, in `timeZone`; null for an empty schedule. */
export function nextReminderSlot(schedule: readonly ReminderEntry[], timeZone: string, after: Date): ReminderSlot | null {
  // Eight days cover every weekday once more, even when today's slot has passed.
  for (let offset = 0; offset <= 8 && schedule.length > 0; offset++) {
    const later = slotsOnDay(schedule, timeZone, after, offset).filter((s) => s.at.getTime() > after.getTime());
    if (later.length > 0) return later.reduce((a, b) => (b.at < a.at ? b : a));
  }
  return null;
}

/** The last reminder slot at or before `atOrBefore`, in `timeZone`; null for an empty schedule. */
export function lastReminderSlot(schedule: readonly ReminderEntry[], timeZone: string, atOrBefore: Date): ReminderSlot | null {
  for (let offset = 0; offset >= -8 && schedule.length > 0; offset--) {
    const earlier = slotsOnDay(schedule, timeZone, atOrBefore, offset).filter((s) => s.at.getTime() <= atOrBefore.getTime());
    if (earlier.length > 0) return earlier.reduce((a, b) => (b.at > a.at ? b : a));
  }
  return null;
}
