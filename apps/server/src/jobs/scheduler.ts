import type { PgBoss } from 'pg-boss';
import { schedulerTicks } from '../metrics/process-metrics';
import type { AppContext } from '../context';
import { runSchedulerTick } from '../scheduling/run-scheduler-tick';
import { deleteExpiredAttempts } from '../services/attempts/count-attempts';
import { deleteOldCodeTexts } from '../services/phone-codes/code-text-budget';
import { deleteExpiredPhoneCodes } from '../services/phone-codes/issue-phone-code';
import { deleteExpiredSessions } from '../services/sessions/delete-session';
import { deleteExpiredQuestions } from '../services/inbound/delete-expired-questions';
import { buildDataExports } from '../services/exports/build-data-exports';
import { deleteExpiredExports } from '../services/exports/delete-expired-exports';
import { scrubErasedTexts } from '../services/users/scrub-erased-texts';
import type { Log } from '../lib/log';

export const SCHEDULER_QUEUE = 'scheduler-tick';

/**
 * Reminders, automatic newsletters and housekeeping: pg-boss fires one tick a minute for the whole cluster
 * (its cron is shared through the database, and the singleton policy keeps one tick running at
 * a time), and the tick claims due Loops with SKIP LOCKED, so any number of processes is safe.
 * One tick also runs at start, to catch up on what came due while the server was down.
 */
export async function startScheduler(ctx: AppContext, boss: PgBoss, log: Log): Promise<() => Promise<void>> {
  const tick = async () => {
    try {
      await runTick();
      schedulerTicks.inc({ outcome: 'ok' });
    } catch (error) {
      schedulerTicks.inc({ outcome: 'failed' });
      throw error;
    }
  };
  const runTick = async () => {
    const now = ctx.clock();
    const result = await runSchedulerTick(ctx, { now });
    if (result.reminderLoops || result.drafts || result.approvalReminders || result.newsletters) log.info(result, 'scheduler tick');
    // Housekeeping: attempt counts whose window ended, expired codes, code texts a day old, sessions past their absolute
    // expiry, "which Loop?" questions no longer open, data exports past their 24 hours (and any
    // export a process left unbuilt), DELETE-by-text requests no longer open, and the
    // number on the last text to someone who erased themselves by text.
    await deleteExpiredAttempts(ctx.db, now);
    await deleteExpiredPhoneCodes(ctx.db, now);
    await deleteOldCodeTexts(ctx.db, now);
    await deleteExpiredSessions(ctx.db, now);
    await deleteExpiredQuestions(ctx.db, now);
    await deleteExpiredExports(ctx, now);
    await scrubErasedTexts(ctx.db);
    await buildDataExports(ctx);
  };
  await boss.createQueue(SCHEDULER_QUEUE, { policy: 'singleton' });
  await boss.schedule(SCHEDULER_QUEUE, '* * * * *');
  const workerId = await boss.work(SCHEDULER_QUEUE, async () => {
    await tick();
  });
  let stopped = false;
  const first = tick().catch((error: unknown) => log.error({ err: error }, 'scheduler tick failed'));
  return async () => {
    if (stopped) return;
    stopped = true;
    await first;
    await boss.offWork(SCHEDULER_QUEUE, { id: workerId });
  };
}
