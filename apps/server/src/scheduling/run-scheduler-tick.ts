import { applyEarlyStatuses } from '../messaging/record-status';
import type { AppContext } from '../context';
import { mailLinksOf } from '../mail/links';
import {
  draftNextScheduledNewsletter,
  sendNextScheduledNewsletter,
  sweepApprovalReminders,
  type AutoNewsletters,
} from './sweep-newsletters';
import { sweepLastCalls } from './sweep-last-calls';
import { sweepPreviewTexts } from './sweep-preview-texts';
import { sweepReminders, type SweepHooks } from './sweep-reminders';
import { fillPhoneTimeZones } from '../messaging/time-zones';
import { deleteOldMessages } from '../messaging/delete-old-messages';
import { sendDueGroupMessages } from '../services/group-messages/send-due-group-messages';

export const REMINDER_BATCH = 500;
/** Phone zones looked up by one tick at the most (a few milliseconds each). */
export const PHONE_ZONES_PER_TICK = 2000;
/** Newsletter drafts written, and newsletters sent, by one tick at the most; the rest wait for the next minute. */
export const NEWSLETTERS_PER_TICK = 200;

export interface TickResult {
  reminderLoops: number;
  reminderTexts: number;
  /** Texts of the day-before "last call" to members still silent (decision 0043). */
  lastCallTexts: number;
  /** Scheduled drafts written (each texts its owner), and the owners' texts 2 hours before an unapproved one (decision 0040). */
  drafts: number;
  /** Drafts given a send time by hand (or moved) whose 24-hour preview text went this tick. */
  previewTexts: number;
  approvalReminders: number;
  newsletters: number;
  groupMessages: number;
  /** Texts and e-mails deleted as older than MESSAGE_RETENTION_DAYS (decision 0058). */
  deletedMessages: number;
}

/**
 * One scheduler pass (every minute): every due reminder in batches, then due newsletters one
 * Loop at a time. Safe to run in several processes at once.
 */
export async function runSchedulerTick(
  ctx: Pick<AppContext, 'db' | 'config' | 'writer'>,
  options: { now: Date; mode?: AutoNewsletters; hooks?: SweepHooks },
): Promise<TickResult> {
  const result: TickResult = {
    reminderLoops: 0,
    reminderTexts: 0,
    lastCallTexts: 0,
    drafts: 0,
    previewTexts: 0,
    approvalReminders: 0,
    newsletters: 0,
    groupMessages: 0,
    deletedMessages: 0,
  };
  // Phone zones not looked up yet (people added before there were any, or by a script), before
  // reminders are due in them.
  await fillPhoneTimeZones(ctx.db, PHONE_ZONES_PER_TICK);
  // Texts and e-mails past their retention (decision 0058).
  result.deletedMessages = await deleteOldMessages(ctx.db, options.now, ctx.config.MESSAGE_RETENTION_DAYS);
  for (;;) {
    const swept = await sweepReminders(ctx.db, options.now, REMINDER_BATCH, options.hooks);
    result.reminderLoops += swept.loops;
    result.reminderTexts += swept.texts;
    if (swept.loops < REMINDER_BATCH) break;
  }
  const mode = options.mode ?? ctx.config.AUTO_NEWSLETTERS;
  // No last call when the scheduler makes no newsletters.
  while (mode !== 'off') {
    const swept = await sweepLastCalls(ctx.db, options.now, REMINDER_BATCH, options.hooks);
    result.lastCallTexts += swept.texts;
    if (swept.loops < REMINDER_BATCH) break;
  }
  // Group messages scheduled for now or earlier (decision 0042); quiet hours are the sender's.
  result.groupMessages = await sendDueGroupMessages(ctx.db, options.now);
  // Status callbacks that came before their send was recorded, and were not applied since.
  await applyEarlyStatuses(ctx.db, { maxAttempts: ctx.config.SEND_MAX_ATTEMPTS, now: options.now });
  // Scheduled newsletters (decision 0040): drafts 24 hours ahead, owners' approval reminders, then sends.
  const sweep = {
    mode,
    writer: ctx.writer,
    publicUrl: ctx.config.PUBLIC_URL,
    mail: mailLinksOf(ctx.config),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  for (let i = 0; i < NEWSLETTERS_PER_TICK; i++) {
    const swept = await draftNextScheduledNewsletter(ctx.db, options.now, sweep);
    if (!swept.claimed) break;
    if (swept.drafted) result.drafts += 1;
  }
  result.previewTexts = await sweepPreviewTexts(ctx.db, options.now, sweep, NEWSLETTERS_PER_TICK);
  result.approvalReminders = await sweepApprovalReminders(ctx.db, options.now, sweep, NEWSLETTERS_PER_TICK);
  for (let i = 0; i < NEWSLETTERS_PER_TICK; i++) {
    const swept = await sendNextScheduledNewsletter(ctx.db, options.now, sweep);
    if (!swept.claimed) break;
    result.newsletters += 1;
  }
  return result;
}
