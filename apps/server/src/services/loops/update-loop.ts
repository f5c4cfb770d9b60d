import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoopSummary, updateLoopSchema } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import type { QuietHours } from '@loop/shared/quiet-hours';
import { checkReminderTimes } from '../schedules/check-reminder-times';
import { nextNewsletterAt, nextReminderAtForLoop } from '../schedules/schedule-columns';
import { getLoopSummary } from './get-loop-summary';

/**
 * Changes a Loop's settings: name, context, vibe, reminder schedule, time zone. A new schedule
 * or zone takes effect from the next slot after now.
 */
export async function updateLoop(
  db: Db,
  loop: typeof loops.$inferSelect,
  changes: z.output<typeof updateLoopSchema>,
  now: Date,
  quiet: QuietHours | null,
): Promise<LoopSummary> {
  checkReminderTimes(changes.reminderSchedule, quiet);
  const values: Partial<typeof loops.$inferInsert> = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (changes.reminderSchedule !== undefined || changes.timeZone !== undefined) {
    const next = { ...loop, ...values };
    values.nextReminderAt = await nextReminderAtForLoop(db, next, now);
    if (changes.timeZone !== undefined) values.nextNewsletterAt = nextNewsletterAt(next, now);
  }
  if (Object.keys(values).length > 0) {
    await db.update(loops).set(values).where(eq(loops.id, loop.id));
  }
  return getLoopSummary(db, loop.id);
}
