// `npm run bench -- reminder-burst`: 10,000 Loops of 10 members, all due Thursday 09:00, on
// PostgreSQL. Prints how long the scheduler takes to queue the 100,000 reminder texts, the
// delivery rate to a fake Twilio on 127.0.0.1 with pacing off, and the achieved rate against a
// configured pace of 50/s. Uses a fresh database that it drops at the end. The fake Twilio runs
// in a child process (fake-twilio-process.ts), as Twilio is not in Loop's process either.
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import { openDatabase } from '../../apps/server/src/db/client';
import { sweepUntilIdle, startMessageWorker } from '../../apps/server/src/jobs/message-worker';
import { createAppContext } from '../../apps/server/src/create-context';
import { runSchedulerTick } from '../../apps/server/src/scheduling/run-scheduler-tick';
import { twilioEnv, type FakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { startBenchChild } from '../child-process';
import { createScratchDatabase } from '../scratch-database';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOOPS = Number(process.env.BENCH_LOOPS ?? 10_000);
const MEMBERS = 10;
/** Delivery is measured on this many texts (all of them by default). */
const DELIVER = Number(process.env.BENCH_DELIVER ?? LOOPS * MEMBERS);
const PACED_SECONDS = 10;
const DUE = new Date('2026-09-10T09:00:00Z'); // a Thursday

async function main(): Promise<void> {
  const load = loadavg()[0] ?? 0;
  const scratch = await createScratchDatabase(POSTGRES);
  const { url, dataDir } = scratch;
  const fake = await startFakeTwilioProcess();
  const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
  if (database.kind !== 'postgres') throw new Error('bench/reminder-burst runs on PostgreSQL only');
  try {
    const env = { ...twilioEnv(fake.settings), DATABASE_URL: url, DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' };
    let seeded = performance.now();
    await seed(url);
    seeded = performance.now() - seeded;
    console.log(`seeded ${LOOPS} Loops x ${MEMBERS} members in ${(seeded / 1000).toFixed(1)} s`);

    const unpaced = createAppContext(loadConfig({ ...env, SEND_RATE_PER_SECOND: '0' }), database, { clock: () => DUE, log: console });
    const queuedAt = performance.now();
    const tick = await runSchedulerTick(unpaced, { now: DUE, mode: 'off' });
    const queueSeconds = (performance.now() - queuedAt) / 1000;

    // Delivery with pacing off: the real sender, the twilio SDK, real HTTP to the fake server.
    const limit = Math.min(DELIVER, tick.reminderTexts);
    if (limit < tick.reminderTexts) {
      await database.pool.query(
        `update messages set status = 'held' where kind = 'reminder' and id not in (select id from messages where kind = 'reminder' order by id limit ${limit})`,
      );
      // Clean up after rewriting the held rows (bench setup) before the timing starts.
      await database.pool.query('vacuum analyze messages');
    }
    const sentBefore = await fake.count();
    const deliverAt = performance.now();
    await sweepUntilIdle(unpaced);
    const deliverSeconds = (performance.now() - deliverAt) / 1000;
    const delivered = (await fake.count()) - sentBefore;

    // Paced at 50/s: queue texts again and measure what a sender achieves over a fixed window.
    await database.pool.query(
      `update messages set status = 'queued', next_attempt_at = null, attempts = 0 where kind = 'reminder' and status in ('held', 'sent')`,
    );
    // That rewrote 100,000 rows: let PostgreSQL clean up after the bench's own setup before the
    // window opens, so the window measures the sender.
    await database.pool.query('vacuum analyze messages');
    const paced = { ...unpaced, config: loadConfig({ ...env, SEND_RATE_PER_SECOND: '50' }) };
    const pacedBefore = await fake.count();
    // When the first text reaches Twilio: the start-up part of the window (claim, connections).
    let firstAt: number | undefined;
    void fake.first().then(() => {
      firstAt = performance.now();
    });
    const pacedAt = performance.now();
    const stop = pacedAt + PACED_SECONDS * 1000;
    const errors: unknown[] = [];
    const worker = startMessageWorker(paced, { onError: (error) => errors.push(error), pollMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, stop - performance.now()));
    const pacedSent = (await fake.count()) - pacedBefore;
    const pacedSeconds = (performance.now() - pacedAt) / 1000;
    await worker.stop();
    if (errors.length > 0) console.error(`the paced worker failed ${errors.length} time(s); first:`, errors[0]);

    const unpacedRate = delivered / deliverSeconds;
    const pacedRate = pacedSent / pacedSeconds;
    const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    const rows: [string, string][] = [
      ['reminder texts queued', `${tick.reminderTexts.toLocaleString('en-US')} (target 100,000)`],
      ['time to queue them all', `${queueSeconds.toFixed(2)} s (target < 10 s) ${verdict(queueSeconds < 10)}`],
      [
        'delivered with pacing off',
        `${delivered.toLocaleString('en-US')} in ${deliverSeconds.toFixed(1)} s = ${Math.round(unpacedRate)} texts/s (target >= 5,000/s) ${verdict(unpacedRate >= 5000)}`,
      ],
      [
        'achieved rate at a pace of 50/s',
        `${pacedRate.toFixed(1)} texts/s over ${pacedSeconds.toFixed(1)} s, the first after ${firstAt === undefined ? '-' : Math.round(firstAt - pacedAt)} ms (target 47.5-52.5) ${verdict(Math.abs(pacedRate - 50) <= 2.5)}`,
      ],
      // Two cores shared with anything else running: figures move with the load.
      [
        'machine load (1-minute average)',
        `${load.toFixed(2)} at start, ${loadavg()[0]?.toFixed(2)} at end, on ${availableParallelism()} cores`,
      ],
    ];
    console.log(`\nreminder-burst on PostgreSQL (${LOOPS.toLocaleString('en-US')} Loops x ${MEMBERS} members)`);
    for (const [label, value] of rows) console.log(`  ${label.padEnd(34)} ${value}`);
  } finally {
    await database.close();
    await fake.close();
    await scratch.drop();
  }
}

interface FakeTwilioProcess {
  settings: FakeTwilio;
  /** How many texts it took so far. */
  count: () => Promise<number>;
  /** Resolves when the next text arrives. */
  first: () => Promise<void>;
  close: () => Promise<void>;
}

async function startFakeTwilioProcess(): Promise<FakeTwilioProcess> {
  const child = await startBenchChild<{ url: string; accountSid: string; authToken: string }>(
    path.join(import.meta.dirname, 'fake-twilio-process.ts'),
  );
  return {
    settings: { ...child.ready } as FakeTwilio,
    count: child.count,
    first: async () => {
      await child.ask({ type: 'watch' }, 'first');
    },
    close: child.close,
  };
}

/**
 * Users, Loops and members set-wise in SQL: seeding is not what is measured. The phones say
 * nothing of their zone (''), so every member is due at the Loops' 09:00 UTC (decision 0036).
 */
async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      insert into users (first_name, last_name, phone_number, phone_time_zone)
      select 'Member', 'No. ' || g, '+1628' || (2000000 + g)::text, '' from generate_series(1, ${LOOPS * MEMBERS}) g`);
    await client.query(
      `
      insert into loops (name, vibe, reminder_schedule, time_zone, creator_id, next_reminder_at)
      select 'Loop ' || g, '{family}', '[{"day":"thursday","time":"09:00"}]'::jsonb, 'UTC', (g - 1) * ${MEMBERS} + 1, $1
      from generate_series(1, ${LOOPS}) g`,
      [DUE],
    );
    // A fresh database numbers rows from 1: Loop g has users (g-1)*10+1 .. g*10. Active
    // memberships: only those get reminders (decision 0015).
    await client.query(`
      insert into members (loop_id, user_id, status, confirmed_at)
      select l, (l - 1) * ${MEMBERS} + k, 'active', now() from generate_series(1, ${LOOPS}) l, generate_series(1, ${MEMBERS}) k`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
