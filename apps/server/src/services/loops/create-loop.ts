import type { z } from 'zod';
import type { createLoopSchema, LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, members } from '../../db/schema';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { enforceLimits, type Limit } from '../attempts/enforce-limits';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { queueWelcomeText } from '../../messaging/outbox';
import { checkReminderTimes } from '../schedules/check-reminder-times';
import { moveReminderEarlier, nextNewsletterAt, nextReminderAt } from '../schedules/schedule-columns';
import { getLoopSummary } from './get-loop-summary';

/** Creates a Loop with its creator as the first member, in one transaction. */
export async function createLoop(
  db: Db,
  input: z.output<typeof createLoopSchema>,
  options: { creatorId: number; config: Config; now: Date },
): Promise<LoopSummary & { nextNewsletterAt: string }> {
  if (input.creatorId !== undefined && input.creatorId !== options.creatorId) {
    throw new AppError('forbidden', 'creatorId must be your own user id: a Loop is created by the signed-in person.');
  }
  checkReminderTimes(input.reminderSchedule, options.config.QUIET_HOURS);
  const firstNewsletterAt = nextNewsletterAt(input, options.now);
  return db.transaction(async (tx) => {
    const [loop] = await tx
      .insert(loops)
      .values({
        name: input.name,
        context: input.context,
        vibe: input.vibe,
        frequency: input.frequency,
        reminderSchedule: input.reminderSchedule,
        timeZone: input.timeZone,
        creatorId: options.creatorId,
        createdAt: options.now,
        nextReminderAt: nextReminderAt(input, options.now),
        nextNewsletterAt: firstNewsletterAt,
      })
      .returning({ id: loops.id });
    if (!loop) throw new Error('insert returned no row');
    await enforceLimits(tx, options.config.SESSION_SECRET, options.now, loopCreationLimits(options.config, options.creatorId));
    // The creator said yes by making it: their membership is active from the start.
    await tx
      .insert(members)
      .values({ loopId: loop.id, userId: options.creatorId, status: 'active', confirmedAt: options.now, createdAt: options.now });
    // The creator texts in like everyone else: they get the same how-to.
    await queueWelcomeText(tx, { userId: options.creatorId, loopId: loop.id, loopName: input.name });
    // The creator's own zone may bring the first reminder forward (decision 0036).
    await moveReminderEarlier(tx, loop.id, options.now);
    // The owner is told when the first newsletter goes, and in which zone.
    return { ...(await getLoopSummary(tx, loop.id)), nextNewsletterAt: firstNewsletterAt.toISOString() };
  });
}

/** Loops an account creates per hour and per day. */
function loopCreationLimits(config: Pick<Config, 'LOOPS_PER_ACCOUNT_PER_HOUR' | 'LOOPS_PER_ACCOUNT_PER_DAY'>, creatorId: number): Limit[] {
  const message = (period: string) => (wait: string) =>
    `You have created the most Loops allowed in one ${period}. Please try again ${wait}.`;
  return [
    { key: `loop-create:hour:${creatorId}`, max: config.LOOPS_PER_ACCOUNT_PER_HOUR, windowMs: HOUR_MS, message: message('hour') },
    { key: `loop-create:day:${creatorId}`, max: config.LOOPS_PER_ACCOUNT_PER_DAY, windowMs: DAY_MS, message: message('day') },
  ];
}
