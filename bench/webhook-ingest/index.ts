// `npm run bench -- webhook-ingest`: signed Twilio webhooks with unique MessageSids against the
// real server, once on PostgreSQL and once on PGlite, next to the same server's cheapest route.
// All traffic stays on 127.0.0.1 (a fake Twilio takes the replies); each run is bounded.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type RequestSetup, type Result } from 'autocannon';
import pg from 'pg';
import twilio from 'twilio';
import { openDatabase } from '../../apps/server/src/db/client';
import { startFakeTwilio, type FakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { startServer } from '../../apps/server/test/helpers/server-process';
import { SERVER_NODE_ARGS } from '../server-node-args';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WEBHOOK = '/api/webhooks/twilio/messages';
/** Requests signed ahead of the run, per second of it (more than this machine serves). */
const PRESIGNED_PER_SECOND = 8000;
// BENCH_DATABASES=postgres or pglite runs one of the two (profiling); both by default.
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',').map((d) => d.trim().toLowerCase());

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
async function run(options: Parameters<typeof autocannon>[0], serverPid: number, backends: () => Promise<number[]>): Promise<{ result: Result; cpu: CpuPerRequest }> {
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

async function onPostgres(fake: FakeTwilio): Promise<Figures> {
  const name = `loop_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  try {
    const backends = async () => {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name]);
      return rows.map((r) => r.pid);
    };
    return await measure('PostgreSQL', fake, { DATABASE_URL: url.toString(), DATA_DIR: dataDir }, backends, async (prefix, acked) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const { rows } = await client.query<Counts>(COUNT_SQL, [`${prefix}%`, JSON.stringify(acked)]);
      await client.end();
      return rows[0] ?? { stored: 0, handled: 0, ackedStored: 0 };
    });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPglite(fake: FakeTwilio): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  try {
    return await measure('PGlite', fake, { DATABASE_URL: '', DATA_DIR: dataDir }, async () => [], async (prefix, acked) => {
      // The server has stopped and released the directory: open it to count.
      const database = await openDatabase({ dataDir });
      if (database.kind !== 'pglite') throw new Error('expected PGlite');
      const result = await database.pglite.query<Counts>(COUNT_SQL, [`${prefix}%`, JSON.stringify(acked)]);
      await database.close();
      return result.rows[0] ?? { stored: 0, handled: 0, ackedStored: 0 };
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  database: string,
  fake: FakeTwilio,
  env: Record<string, string>,
  backends: () => Promise<number[]>,
  countStored: (prefix: string, acked: string[]) => Promise<Counts>,
): Promise<Figures> {
  console.log(`\n${database}: starting the server...`);
  const server = await startServer({
    ...env,
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: '+15005550006',
    TWILIO_API_BASE_URL: fake.url,
  }, { nodeArgs: SERVER_NODE_ARGS });
  const pid = server.child.pid ?? 0;
  const prefix = `SM${randomBytes(6).toString('hex')}`;
  const acked: string[] = [];
  let health: Awaited<ReturnType<typeof run>>;
  let webhook: Awaited<ReturnType<typeof run>>;
  try {
    await autocannon({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: 2 });
    console.log(`${database}: GET /api/health for ${DURATION_S} s...`);
    health = await run({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: DURATION_S }, pid, backends);
    const request = signedWebhook(server.url, fake, prefix, acked);
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
  } finally {
    await server.stop();
  }
  return {
    database,
    health: health.result,
    webhook: webhook.result,
    acked: acked.length,
    ...(await countStored(prefix, acked)),
    cpu: { health: health.cpu, webhook: webhook.cpu },
  };
}

/**
 * A new inbound SMS per request: unique MessageSid, a sender of 1,000, signed as Twilio signs.
 * Twilio's signing is not the server's work, and autocannon shares the machine with the server:
 * the requests for the expected rate are signed before the run starts, later ones on the fly.
 */
function signedWebhook(publicUrl: string, fake: FakeTwilio, prefix: string, acked: string[]) {
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
      From: `+1415555${String(n % 1000).padStart(4, '0')}`,
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
  const signed = Array.from({ length: PRESIGNED_PER_SECOND * DURATION_S }, (_, i) => sign(i + 1));
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
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} CPUs`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
