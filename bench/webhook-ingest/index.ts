// `npm run bench -- webhook-ingest`: signed Twilio webhooks with unique MessageSids against the
// real server, once on PostgreSQL and once on PGlite, next to the same server's cheapest route.
// The 1,000 senders are members of a Loop, so each text becomes an update and a reply: after the
// burst the bench waits until the worker has handled every stored text (end to end: acknowledged
// -> update stored -> reply queued, texts/s), then sends a steady BENCH_STEADY_RATE texts/s
// (500) and reports the p99 from webhook to stored update. All traffic stays on 127.0.0.1 (a fake
// Twilio takes the replies); each run is bounded.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type RequestSetup, type Result } from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import twilio from 'twilio';
import { openDatabase } from '../../apps/server/src/db/client';
import { startFakeTwilio, type FakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { startServer } from '../../apps/server/test/helpers/server-process';
import { createScratchDatabase } from '../scratch-database';
import { SERVER_NODE_ARGS } from '../server-node-args';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WEBHOOK = '/api/webhooks/twilio/messages';
/** Requests signed ahead of the run, per second of it (more than this machine serves). */
const PRESIGNED_PER_SECOND = 8000;
// BENCH_DATABASES=postgres or pglite runs one of the two (profiling); both by default.
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',').map((d) => d.trim().toLowerCase());
/** The steady load's texts per second, and how long it lasts. */
const STEADY_RATE = Number(process.env.BENCH_STEADY_RATE ?? 500);
const STEADY_S = Number(process.env.BENCH_STEADY_S ?? 10);
/** The longest the bench waits for the worker to catch up after a run. */
const DRAIN_LIMIT_S = Number(process.env.BENCH_DRAIN_LIMIT_S ?? 180);
const SENDERS = 1000;
const SENDERS_PER_LOOP = 10;

/**
 * End to end, for the texts of one run ($1: their MessageSid prefix): how many the worker
 * handled, the seconds from the first one stored to the last one handled, how many updates and
 * replies they made, and the p50/p99 seconds from a text's webhook (its row's created_at, taken
 * just before it is committed and acknowledged) to its update (the row is marked processed in the
 * transaction that stores the update and queues the reply).
 */
const END_TO_END_SQL = `with texts as (
    select id, status, created_at, updated_at from messages where direction = 'inbound' and provider_message_id like $1)
  select (select count(*) from texts)::int as stored,
    (count(*) filter (where status in ('processed', 'ignored')))::int as handled,
    coalesce(extract(epoch from max(updated_at) filter (where status in ('processed', 'ignored')) - min(created_at)), 0)::float8 as "spanS",
    (select count(*) from updates u where u.message_id in (select id from texts))::int as updates,
    (select count(*) from messages r where r.idempotency_key in (select 'reply:' || id from texts))::int as replies,
    coalesce(percentile_cont(0.5) within group (order by extract(epoch from updated_at - created_at)) filter (where status = 'processed'), 0)::float8 as "p50S",
    coalesce(percentile_cont(0.99) within group (order by extract(epoch from updated_at - created_at)) filter (where status = 'processed'), 0)::float8 as "p99S"
  from texts`;

interface EndToEnd {
  stored: number;
  handled: number;
  spanS: number;
  updates: number;
  replies: number;
  p50S: number;
  p99S: number;
}

/**
 * The benchmark's texts that were stored, how many of them the worker had handled when the server
 * stopped, and how many of the acknowledged MessageSids ($2, a JSON array) have their row.
 */
const COUNT_SQL = `select count(*)::int as stored, (count(*) filter (where status in ('processed', 'ignored')))::int as handled,
    (count(*) filter (where provider_message_id in (select jsonb_array_elements_text($2::jsonb))))::int as "ackedStored"
  from messages where direction = 'inbound' and provider_message_id like $1`;

interface Counts {
  stored: number;
  handled: number;
  ackedStored: number;
}

interface Figures {
  database: string;
  health: Result;
  webhook: Result;
  stored: number;
  handled: number;
  /** MessageSids answered 2xx, and how many of them have a row. */
  acked: number;
  ackedStored: number;
  /** CPU milliseconds per request during each run: the server process, its PostgreSQL backends, and this process (autocannon). */
  cpu: { health: CpuPerRequest; webhook: CpuPerRequest };
  /** The burst's texts end to end, and the steady run's. */
  burst: EndToEnd;
  steady: EndToEnd & { rate: number; acked: number };
}

interface CpuPerRequest {
  server: number;
  postgres: number;
  autocannon: number;
}

/**
 * CPU time (ms) of processes, from /proc (Linux; empty elsewhere). The machine is shared, so
 * requests per second move with the load: CPU per request does not, much.
 */
function cpuMs(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // Gone, or not Linux.
    }
  }
  return ticks;
}

/** Measures one autocannon run with the CPU the server, its database backends and autocannon spent on it. */
async function run(
  options: Parameters<typeof autocannon>[0],
  serverPid: number,
  backends: () => Promise<number[]>,
): Promise<{ result: Result; cpu: CpuPerRequest }> {
  const before = cpuMs([serverPid, ...(await backends())]);
  const self = process.cpuUsage();
  const result = await autocannon(options);
  const own = process.cpuUsage(self);
  const after = cpuMs([serverPid, ...(await backends())]);
  let postgres = 0;
  for (const [pid, ms] of after) if (pid !== serverPid) postgres += ms - (before.get(pid) ?? 0);
  const n = Math.max(1, result.requests.total);
  return {
    result,
    cpu: {
      server: ((after.get(serverPid) ?? 0) - (before.get(serverPid) ?? 0)) / n,
      postgres: postgres / n,
      autocannon: (own.user + own.system) / 1000 / n,
    },
  };
}

async function main(): Promise<void> {
  const fake = await startFakeTwilio();
  const results: Figures[] = [];
  try {
    if (DATABASES.includes('postgres')) results.push(await onPostgres(fake));
    if (DATABASES.includes('pglite')) results.push(await onPglite(fake));
  } finally {
    await fake.close();
  }
  print(results);
}

/** Reads the benchmark's rows: on PGlite only once the server has stopped and released the folder. */
type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

async function onPostgres(fake: FakeTwilio): Promise<Figures> {
  // Reads which backends serve the new database (pg_stat_activity).
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const scratch = await createScratchDatabase(POSTGRES);
  const { name, url, dataDir } = scratch;
  const client = new pg.Client({ connectionString: url });
  try {
    await seed({ databaseUrl: url });
    await client.connect();
    const query: Query = async <T>(text: string, params: unknown[]) => (await client.query(text, params)).rows as T[];
    const backends = async () => {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name]);
      return rows.map((r) => r.pid);
    };
    // PostgreSQL is read while the server runs: the bench waits exactly until no text is left.
    const backlog = async () =>
      (
        await query<{ n: number }>(
          `select count(*)::int as n from messages where direction = 'inbound' and status in ('received', 'processing')`,
          [],
        )
      )[0]?.n ?? 0;
    return await measure('PostgreSQL', fake, { DATABASE_URL: url, DATA_DIR: dataDir }, backends, backlog, async () => query);
  } finally {
    await client.end().catch(() => {});
    await admin.end();
    await scratch.drop();
  }
}

async function onPglite(fake: FakeTwilio): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  let close = async () => {};
  try {
    await seed({ dataDir });
    return await measure(
      'PGlite',
      fake,
      { DATABASE_URL: '', DATA_DIR: dataDir },
      async () => [],
      null,
      async () => {
        // The server has stopped and released the directory: open it to count.
        const database = await openDatabase({ dataDir });
        if (database.kind !== 'pglite') throw new Error('expected PGlite');
        close = database.close;
        return async <T>(text: string, params: unknown[]) => (await database.pglite.query<T>(text, params)).rows;
      },
    );
  } finally {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The 1,000 senders, each an active member of one Loop of ten (sender n is +1415555 and n's four
 * digits), set-wise in SQL: seeding is not what is measured. A fresh database numbers rows from 1.
 */
async function seed(options: { databaseUrl?: string; dataDir?: string }): Promise<void> {
  const database = await openDatabase(options);
  try {
    await database.db.execute(
      sql.raw(`
      insert into users (first_name, last_name, phone_number)
      select 'Sender', 'No. ' || g, '+1415555' || lpad(g::text, 4, '0') from generate_series(0, ${SENDERS - 1}) g`),
    );
    await database.db.execute(
      sql.raw(`
      insert into loops (name, creator_id) select 'Loop ' || g, g * ${SENDERS_PER_LOOP} + 1 from generate_series(0, ${SENDERS / SENDERS_PER_LOOP - 1}) g`),
    );
    await database.db.execute(
      sql.raw(`
      insert into members (loop_id, user_id, status, confirmed_at)
      select (u.id - 1) / ${SENDERS_PER_LOOP} + 1, u.id, 'active', now() from users u`),
    );
  } finally {
    await database.close();
  }
}

async function measure(
  database: string,
  fake: FakeTwilio,
  env: Record<string, string>,
  backends: () => Promise<number[]>,
  /** Texts not handled yet, read while the server runs; null: wait until the server is idle instead (PGlite). */
  backlog: (() => Promise<number>) | null,
  reader: () => Promise<Query>,
): Promise<Figures> {
  console.log(`\n${database}: starting the server...`);
  const server = await startServer(
    {
      ...env,
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_FROM_NUMBER: '+15005550006',
      TWILIO_API_BASE_URL: fake.url,
    },
    { nodeArgs: SERVER_NODE_ARGS },
  );
  const pid = server.child.pid ?? 0;
  const prefix = `SM${randomBytes(6).toString('hex')}`;
  const steadyPrefix = `SM${randomBytes(6).toString('hex')}`;
  const acked: string[] = [];
  const steadyAcked: string[] = [];
  let health: Awaited<ReturnType<typeof run>>;
  let webhook: Awaited<ReturnType<typeof run>>;
  const drain = async (what: string) => {
    const started = performance.now();
    console.log(`${database}: waiting for the worker to handle the ${what} texts...`);
    await (backlog ? waitForBacklog(backlog) : waitForIdle(pid));
    console.log(`${database}: ... ${((performance.now() - started) / 1000).toFixed(1)} s after the last webhook`);
  };
  try {
    await autocannon({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: 2 });
    console.log(`${database}: GET /api/health for ${DURATION_S} s...`);
    health = await run({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: DURATION_S }, pid, backends);
    const request = signedWebhook(server.url, fake, prefix, acked, PRESIGNED_PER_SECOND * DURATION_S);
    console.log(`${database}: POST ${WEBHOOK} for ${DURATION_S} s...`);
    webhook = await run(
      {
        url: `${server.url}${WEBHOOK}`,
        connections: CONNECTIONS,
        duration: DURATION_S,
        timeout: 10,
        requests: [request],
      },
      pid,
      backends,
    );
    await drain('burst');
    console.log(`${database}: POST ${WEBHOOK} at ${STEADY_RATE}/s for ${STEADY_S} s...`);
    await autocannon({
      url: `${server.url}${WEBHOOK}`,
      connections: CONNECTIONS,
      duration: STEADY_S,
      overallRate: STEADY_RATE,
      timeout: 10,
      requests: [signedWebhook(server.url, fake, steadyPrefix, steadyAcked, STEADY_RATE * STEADY_S)],
    });
    await drain('steady');
  } finally {
    await server.stop();
  }
  const query = await reader();
  const [counts] = await query<Counts>(COUNT_SQL, [`${prefix}%`, JSON.stringify(acked)]);
  const [burst] = await query<EndToEnd>(END_TO_END_SQL, [`${prefix}%`]);
  const [steady] = await query<EndToEnd>(END_TO_END_SQL, [`${steadyPrefix}%`]);
  if (!counts || !burst || !steady) throw new Error('the counts came back empty');
  return {
    database,
    health: health.result,
    webhook: webhook.result,
    acked: acked.length,
    ...counts,
    cpu: { health: health.cpu, webhook: webhook.cpu },
    burst,
    steady: { ...steady, rate: STEADY_RATE, acked: steadyAcked.length },
  };
}

/** Until no text is waiting (PostgreSQL, read from outside), at most DRAIN_LIMIT_S. */
async function waitForBacklog(backlog: () => Promise<number>): Promise<void> {
  const until = performance.now() + DRAIN_LIMIT_S * 1000;
  while (performance.now() < until && (await backlog()) > 0) await sleep(200);
}

/**
 * Until the server has been nearly idle (under 10% of a core) for two seconds in a row: PGlite's
 * folder cannot be read while the server holds it. The figures come from the rows' own times, so
 * when exactly this notices does not change them. At most DRAIN_LIMIT_S.
 */
async function waitForIdle(pid: number): Promise<void> {
  const until = performance.now() + DRAIN_LIMIT_S * 1000;
  let quiet = 0;
  let last = cpuMs([pid]).get(pid) ?? 0;
  while (performance.now() < until && quiet < 2) {
    await sleep(1000);
    const now = cpuMs([pid]).get(pid) ?? 0;
    quiet = now - last < 100 ? quiet + 1 : 0;
    last = now;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A new inbound SMS per request: unique MessageSid, one of the 1,000 senders in turn, signed as Twilio signs.
 * Twilio's signing is not the server's work, and autocannon shares the machine with the server:
 * the requests for the expected rate are signed before the run starts, later ones on the fly.
 */
function signedWebhook(publicUrl: string, fake: FakeTwilio, prefix: string, acked: string[], presigned: number) {
  const sign = (n: number) => {
    const messageSid = `${prefix}${n.toString(16).padStart(20, '0')}`;
    const params: Record<string, string> = {
      ToCountry: 'US',
      SmsMessageSid: messageSid,
      NumMedia: '0',
      SmsSid: messageSid,
      SmsStatus: 'received',
      Body: `Benchmark update number ${n}`,
      FromCountry: 'US',
      To: '+15005550006',
      NumSegments: '1',
      MessageSid: messageSid,
      AccountSid: fake.accountSid,
      From: `+1415555${String(n % SENDERS).padStart(4, '0')}`,
      ApiVersion: '2010-04-01',
    };
    return {
      method: 'POST',
      path: WEBHOOK,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(fake.authToken, `${publicUrl}${WEBHOOK}`, params),
      },
      body: new URLSearchParams(params).toString(),
    };
  };
  const signed = Array.from({ length: presigned }, (_, i) => sign(i + 1));
  let n = 0;
  return {
    // One request at a time per connection: its context carries the sid to its answer.
    setupRequest: (_request: RequestSetup, context: Record<string, unknown>) => {
      n += 1;
      context.sid = n;
      return signed[n - 1] ?? sign(n);
    },
    onResponse: (status: number, _body: string, context: Record<string, unknown>) => {
      if (status >= 200 && status < 300) acked.push(`${prefix}${Number(context.sid).toString(16).padStart(20, '0')}`);
    },
  };
}

function print(results: Figures[]): void {
  console.log(`\nwebhook-ingest: ${DURATION_S} s per run, ${CONNECTIONS} connections, 127.0.0.1\n`);
  const rows = results.map((r) => {
    return {
      database: r.database,
      'webhooks/s': Math.round(r.webhook.requests.average),
      'p99 ms': r.webhook.latency.p99,
      // Lost: a MessageSid answered 2xx without its row (stored may also hold a few that were
      // in flight when the run ended, unanswered).
      acknowledged: r.acked,
      stored: r.stored,
      lost: r.acked - r.ackedStored,
      'non-2xx/errors': `${r.webhook.non2xx}/${r.webhook.errors + r.webhook.timeouts}`,
      'health req/s': Math.round(r.health.requests.average),
      'health p99 ms': r.health.latency.p99,
      'webhook/health': `${Math.round((100 * r.webhook.requests.average) / Math.max(1, r.health.requests.average))}%`,
      'handled by worker': r.handled,
    };
  });
  console.table(rows);
  // The machine is shared: CPU per request moves much less with the load than requests per second.
  const ms = (c: CpuPerRequest) => `${c.server.toFixed(3)} / ${c.postgres.toFixed(3)} / ${c.autocannon.toFixed(3)}`;
  console.log('CPU ms per request (server / its PostgreSQL backends / autocannon), from /proc:');
  console.table(results.map((r) => ({ database: r.database, webhook: ms(r.cpu.webhook), health: ms(r.cpu.health) })));
  console.log("End to end (acknowledged -> update stored -> reply queued), from the rows' own times:");
  console.table(
    results.flatMap((r) => [
      { database: r.database, run: `burst, ${CONNECTIONS} connections`, ...endToEnd(r.burst) },
      { database: r.database, run: `steady ${r.steady.rate}/s for ${STEADY_S} s (${r.steady.acked} acknowledged)`, ...endToEnd(r.steady) },
    ]),
  );
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} CPUs`,
  );
}

function endToEnd(e: EndToEnd) {
  return {
    stored: e.stored,
    handled: e.handled,
    updates: e.updates,
    replies: e.replies,
    'texts/s end to end': Math.round(e.handled / Math.max(0.001, e.spanS)),
    'webhook->update p50 ms': Math.round(e.p50S * 1000),
    'p99 ms': Math.round(e.p99S * 1000),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
