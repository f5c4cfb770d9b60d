import { WEEKDAYS, type ReminderEntry } from '@loop/shared/constants';
import { addDays, formatDate, fromLocal, toLocal, weekdayIndex } from './local-time';

export interface ReminderSlot {
  at: Date;
  /** The local date and time of the slot, e.g. "2026-03-08T02:30": part of each text's idempotency key. */
  slot: string;
}

/** The first reminder slot strictly after `after`, in the Loop's zone; null for an empty schedule. */
export function nextReminderSlot(schedule: readonly ReminderEntry[], timeZone: string, after: Date): ReminderSlot | null {
  if (schedule.length === 0) return null;
  const start = toLocal(after, timeZone);
  let best: ReminderSlot | null = null;
  // Eight days cover every weekday once more, even when today's slot has passed.
  for (let offset = 0; offset <= 8 && !best; offset++) {
    const date = addDays(start, offset);
    const weekday = WEEKDAYS[weekdayIndex(date.year, date.month, date.day)];
    for (const entry of schedule) {
      if (entry.day !== weekday) continue;
      const [hour = 0, minute = 0] = entry.time.split(':').map(Number);
      const at = fromLocal({ ...date, hour, minute }, timeZone);
      if (at.getTime() > after.getTime() && (!best || at < best.at)) {
        best = { at, slot: `${formatDate(date)}T${entry.time}` };
      }
    }
  }
  return best;
}
