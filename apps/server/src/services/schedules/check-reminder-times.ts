import type { ReminderEntry } from '@loop/shared/constants';
import { reminderTimeAllowed, reminderTimesMessage, type QuietHours } from '@loop/shared/quiet-hours';
import { AppError } from '../../errors';

/**
 * Refuses a reminder schedule with a time in quiet hours or within 30 minutes of them (QUIET_HOURS;
 * 47 CFR 64.1200(c)(1)): reminders reach each member at that time in their own zone.
 */
export function checkReminderTimes(schedule: readonly ReminderEntry[] | undefined, quiet: QuietHours | null): void {
  if (schedule?.some((entry) => !reminderTimeAllowed(entry.time, quiet))) {
    throw new AppError('bad_request', reminderTimesMessage(quiet));
  }
}
