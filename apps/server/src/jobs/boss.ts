import { PgBoss, fromPglite } from 'pg-boss';
import type { AppContext } from '../context';
import { startMessageWorker } from './message-worker';
import { startScheduler } from './scheduler';
import type { Log } from '../lib/log';

export interface Jobs {
  boss: PgBoss;
  stop: () => Promise<void>;
}

/**
 * Starts the background work on the app's own database: pg-boss (PGlite through its adapter, or
 * the PostgreSQL URL) and the message worker, which works the `messages` outbox (decision 0010).
 */
export async function startJobs(
  ctx: AppContext,
  options: {
    log: Log;
  },
): Promise<Jobs> {
  const { database } = ctx;
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: ctx.config.DATABASE_URL, max: 4 });
  boss.on('error', (error: unknown) => console.error('job queue error:', error));
  await boss.start();
  const messageWorker = startMessageWorker(ctx, {
    onError: (error) => options.log.error({ err: error }, 'message worker failed; trying again at the next poll'),
    onBatchError: (error) =>
      options.log.error({ err: error }, 'a batch of inbound texts could not be stored together; handling them one at a time'),
  });
  const stopScheduler = ctx.config.SCHEDULER ? await startScheduler(ctx, boss, options.log) : async () => {};
  return {
    boss,
    // The message worker (at most SEND_ABORT_AFTER_STOP_MS and a database write) and pg-boss
    // (after the scheduler's own worker, at most 8 s) stop side by side, within server.ts's 10 s.
    stop: async () => {
      await Promise.all([stopScheduler().then(() => boss.stop({ graceful: true, timeout: 8000 })), messageWorker.stop()]);
    },
  };
}
