import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopSummary, updateLoopSchema } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { reminderTimeAllowed, reminderTimeRange, type QuietHours } from '@loop/shared/quiet-hours';
import { AppError } from '../../errors';
import { checkReminderTimes } from '../schedules/check-reminder-times';
import { nextNewsletterAt, nextReminderAtForLoop } from '../schedules/schedule-columns';
import { getLoopSummary } from './get-loop-summary';

/**
 * Changes a Loop's settings: name, context, vibe, reminder schedule, time zone, and (owner and
 * staff alike) paused, frequency, the newsletter's day and time. A new schedule, zone, frequency,
 * day or time takes effect from the next slot after now. Staff's frequency selector comes here too.
 */
export async function updateLoop(
  db: Db,
  loop: typeof loops.$inferSelect,
  changes: z.output<typeof updateLoopSchema>,
  now: Date,
  quiet: QuietHours | null,
): Promise<LoopSummary> {
  checkReminderTimes(changes.reminderSchedule, quiet);
  checkNewsletterTime(changes.newsletterTime, quiet);
  const values: Partial<typeof loops.$inferInsert> = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const next = { ...loop, ...values };
  if (changes.reminderSchedule !== undefined || changes.timeZone !== undefined) {
    values.nextReminderAt = await nextReminderAtForLoop(db, next, now);
  }
  const newsletterMoved = [changes.timeZone, changes.frequency, changes.newsletterDay, changes.newsletterTime].some((v) => v !== undefined);
  if (newsletterMoved) values.nextNewsletterAt = nextNewsletterAt(next, now);
  if (Object.keys(values).length > 0) {
    await db.update(loops).set(values).where(eq(loops.id, loop.id));
  }
  return getLoopSummary(db, loop.id);
}

/**
 * The newsletter's text reaches every member at the Loop's time, so it keeps to the reminders'
 * hours: never in quiet hours or within 30 minutes of them (QUIET_HOURS).
 */
function checkNewsletterTime(time: string | undefined, quiet: QuietHours | null): void {
  if (time === undefined || !quiet || reminderTimeAllowed(time, quiet)) return;
  const { from, to } = reminderTimeRange(quiet);
  throw new AppError(
    'bad_request',
    `Newsletter time must be from ${from} to ${to}: no texts during quiet hours (${quiet.start}-${quiet.end} in each member's own time)`,
  );
}
