import type { Frequency, ReminderEntry } from '@loop/shared/constants';
import { nextNewsletterSlot } from './next-newsletter';
import { nextReminderSlot } from './next-reminder';

/** The indexed columns the scheduler sweeps on, recomputed whenever a Loop's schedule changes. */
export function nextReminderAt(loop: { reminderSchedule: readonly ReminderEntry[]; timeZone: string }, now: Date): Date | null {
  return nextReminderSlot(loop.reminderSchedule, loop.timeZone, now)?.at ?? null;
}

export function nextNewsletterAt(loop: { frequency: Frequency; timeZone: string }, now: Date): Date {
  return nextNewsletterSlot(loop.frequency, loop.timeZone, now).at;
}
