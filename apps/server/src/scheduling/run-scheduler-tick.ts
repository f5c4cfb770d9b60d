import { applyEarlyStatuses } from '../messaging/record-status';
import type { AppContext } from '../context';
import { sweepLastCalls, sweepOneNewsletterDraft, sweepOneScheduledSend, type AutoNewsletters } from './sweep-newsletters';
import { sweepReminders, type SweepHooks } from './sweep-reminders';
import { fillPhoneTimeZones } from '../messaging/time-zones';

export const REMINDER_BATCH = 500;
/** Phone zones looked up by one tick at the most (a few milliseconds each). */
export const PHONE_ZONES_PER_TICK = 2000;
/** Newsletter drafts written, and newsletters sent, by one tick at the most; the rest wait for the next minute. */
export const NEWSLETTERS_PER_TICK = 200;

export interface TickResult {
  reminderLoops: number;
  reminderTexts: number;
  /** Scheduled drafts written (each texts its owner), owners' last-call texts, newsletters sent. */
  drafts: number;
  lastCalls: number;
  newsletters: number;
}

/**
 * One scheduler pass (every minute): every due reminder in batches, then due newsletters one
 * Loop at a time. Safe to run in several processes at once.
 */
export async function runSchedulerTick(
  ctx: Pick<AppContext, 'db' | 'config' | 'writer'>,
  options: { now: Date; mode?: AutoNewsletters; hooks?: SweepHooks },
): Promise<TickResult> {
  const result: TickResult = { reminderLoops: 0, reminderTexts: 0, drafts: 0, lastCalls: 0, newsletters: 0 };
  // Phone zones not looked up yet (people added before there were any, or by a script), before
  // reminders are due in them.
  await fillPhoneTimeZones(ctx.db, PHONE_ZONES_PER_TICK);
  for (;;) {
    const swept = await sweepReminders(ctx.db, options.now, REMINDER_BATCH, options.hooks);
    result.reminderLoops += swept.loops;
    result.reminderTexts += swept.texts;
    if (swept.loops < REMINDER_BATCH) break;
  }
  // Status callbacks that came before their send was recorded, and were not applied since.
  await applyEarlyStatuses(ctx.db, { maxAttempts: ctx.config.SEND_MAX_ATTEMPTS, now: options.now });
  const mode = options.mode ?? ctx.config.AUTO_NEWSLETTERS;
  // Scheduled newsletters (decision 0040): drafts 24 hours ahead, owners' last calls, then sends.
  const sweep = { mode, writer: ctx.writer, publicUrl: ctx.config.PUBLIC_URL, ...(options.hooks ? { hooks: options.hooks } : {}) };
  for (let i = 0; i < NEWSLETTERS_PER_TICK; i++) {
    const swept = await sweepOneNewsletterDraft(ctx.db, options.now, sweep);
    if (!swept.claimed) break;
    if (swept.drafted) result.drafts += 1;
  }
  result.lastCalls = await sweepLastCalls(ctx.db, options.now, sweep, NEWSLETTERS_PER_TICK);
  for (let i = 0; i < NEWSLETTERS_PER_TICK; i++) {
    const swept = await sweepOneScheduledSend(ctx.db, options.now, sweep);
    if (!swept.claimed) break;
    result.newsletters += 1;
  }
  return result;
}
