import { DEFAULT_NEWSLETTER_DAY, DEFAULT_NEWSLETTER_TIME, WEEKDAYS, type Frequency, type Weekday } from '@loop/shared/constants';
import { addDays, formatDate, fromLocal, toLocal, weekdayIndex } from '../../lib/local-time';

/** The weekday and time ("HH:MM") a Loop's newsletter goes out, in its zone (the owner's Settings). */
export interface NewsletterWhen {
  newsletterDay: Weekday;
  newsletterTime: string;
}

export const DEFAULT_NEWSLETTER_WHEN: NewsletterWhen = { newsletterDay: DEFAULT_NEWSLETTER_DAY, newsletterTime: DEFAULT_NEWSLETTER_TIME };

export interface NewsletterSlot {
  at: Date;
  /** The local date the period ends, e.g. "2026-03-29": part of the idempotency key. */
  slot: string;
}

const EPOCH_SUNDAY = Date.UTC(1970, 0, 4);

/**
 * The end of the next period strictly after `after`, in the Loop's zone, at the Loop's time
 * (18:00 unless the owner chose another):
 * - weekly: every week on the Loop's day (Sunday unless chosen);
 * - biweekly: every other week on that day (even weeks counted from Sunday 1970-01-04, so every
 *   Loop on the same calendar gets the same Sundays, whatever day it was created);
 * - monthly: the last day of each month.
 */
export function nextNewsletterSlot(
  frequency: Frequency,
  timeZone: string,
  after: Date,
  when: NewsletterWhen = DEFAULT_NEWSLETTER_WHEN,
): NewsletterSlot {
  const start = toLocal(after, timeZone);
  const [hour = 18, minute = 0] = when.newsletterTime.split(':').map(Number);
  for (let offset = 0; offset < 70; offset++) {
    const date = addDays(start, offset);
    if (!isPeriodEnd(frequency, WEEKDAYS.indexOf(when.newsletterDay), date)) continue;
    const at = fromLocal({ ...date, hour, minute }, timeZone);
    if (at.getTime() > after.getTime()) return { at, slot: formatDate(date) };
  }
  throw new Error(`no ${frequency} period end found after ${after.toISOString()}`);
}

function isPeriodEnd(frequency: Frequency, weekday: number, date: { year: number; month: number; day: number }): boolean {
  if (frequency === 'monthly') return addDays(date, 1).day === 1;
  if (weekdayIndex(date.year, date.month, date.day) !== weekday) return false;
  if (frequency === 'weekly') return true;
  // Weeks as Sunday to Saturday: a Sunday Loop keeps its Sundays, and another day falls in the same weeks.
  const weeks = Math.floor((Date.UTC(date.year, date.month - 1, date.day) - EPOCH_SUNDAY) / (7 * 86_400_000));
  return weeks % 2 === 0;
}
