import type { Frequency } from '@loop/shared/constants';
import { addDays, formatDate, fromLocal, toLocal, weekdayIndex } from '../../lib/local-time';

/** Automatic newsletters go out at 18:00 local time on the last day of each period. */
export const NEWSLETTER_HOUR = 18;

export interface NewsletterSlot {
  at: Date;
  /** The local date the period ends, e.g. "2026-03-29": part of the idempotency key. */
  slot: string;
}

const SUNDAY = 6; // weekdayIndex: Monday 0 ... Sunday 6
const EPOCH_SUNDAY = Date.UTC(1970, 0, 4);

/**
 * The end of the next period strictly after `after`, in the Loop's zone:
 * - weekly: every Sunday at 18:00;
 * - biweekly: every other Sunday at 18:00 (even weeks counted from Sunday 1970-01-04, so every
 *   Loop on the same calendar gets the same Sundays, whatever day it was created);
 * - monthly: the last day of each month at 18:00.
 */
export function nextNewsletterSlot(frequency: Frequency, timeZone: string, after: Date): NewsletterSlot {
  const start = toLocal(after, timeZone);
  for (let offset = 0; offset < 70; offset++) {
    const date = addDays(start, offset);
    if (!isPeriodEnd(frequency, date)) continue;
    const at = fromLocal({ ...date, hour: NEWSLETTER_HOUR, minute: 0 }, timeZone);
    if (at.getTime() > after.getTime()) return { at, slot: formatDate(date) };
  }
  throw new Error(`no ${frequency} period end found after ${after.toISOString()}`);
}

function isPeriodEnd(frequency: Frequency, date: { year: number; month: number; day: number }): boolean {
  if (frequency === 'monthly') return addDays(date, 1).day === 1;
  if (weekdayIndex(date.year, date.month, date.day) !== SUNDAY) return false;
  if (frequency === 'weekly') return true;
  const weeks = Math.round((Date.UTC(date.year, date.month - 1, date.day) - EPOCH_SUNDAY) / (7 * 86_400_000));
  return weeks % 2 === 0;
}
