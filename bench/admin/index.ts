// `npm run bench -- admin`: p95 latency of the admin API with 20 concurrent requests on
// PostgreSQL, on 10,000 Loops, 100,000 members and 1,000,000 updates (a fresh database, dropped
// at the end). Target: every call under 100 ms. Traffic only to 127.0.0.1.
// BENCH_ADMIN_DATABASE_URL: reuse a database seeded earlier by this benchmark's seedLarge (kept, not
// dropped; pending migrations are applied), to profile without seeding for a minute each run.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client';
import { cookiesOf, startServer } from '../../apps/server/test/helpers/server-process';
import { createScratchDatabase } from '../scratch-database';
import { SERVER_NODE_ARGS } from '../server-node-args';
import { seedLarge } from './seed-large';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONCURRENCY = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

async function main(): Promise<void> {
  const reuse = process.env.BENCH_ADMIN_DATABASE_URL;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const scratch = await createScratchDatabase(POSTGRES, { reuse });
  const { url, dataDir } = scratch;
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  if (database.kind !== 'postgres') throw new Error('bench/admin runs on PostgreSQL only');
  try {
    let t = performance.now();
    if (!reuse) {
      await seedLarge(url);
      console.log(`seeded 10,000 Loops, 100,000 members, 1,000,000 updates in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    // The real server in its own process, so the load generator does not share its event loop.
    // Attempt counts live in the database: a reused one remembers earlier runs' sign-ins.
    const server = await startServer(
      { DATABASE_URL: url, DATA_DIR: dataDir, SCHEDULER: 'false', AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000' },
      { nodeArgs: SERVER_NODE_ARGS },
    );
    try {
      const base = server.url;
      const account = {
        email: 'staff@example.com',
        password: 'benchmark password',
        firstName: 'Staff',
        lastName: 'Member',
        phoneNumber: '+14155550100',
      };
      let holder = '';
      const post = (pathname: string, body: object) =>
        fetch(`${base}${pathname}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: holder },
          body: JSON.stringify(body),
        });
      // Sign-up texts a code (the simulator's text is in the answer); a reused database already has the account.
      const started = await post('/api/register', account);
      // The code works only with the cookie of the form that asked for it.
      holder = cookiesOf(started);
      const code = /\b(\d{6})\b/.exec(started.ok ? (((await started.json()) as { simulatedText?: string }).simulatedText ?? '') : '')?.[1];
      let signedIn = code ? await post('/api/register/verify', { phoneNumber: account.phoneNumber, code }) : undefined;
      if (!signedIn?.ok) signedIn = await post('/api/login', { email: account.email, password: account.password });
      // Staff are granted, never claimed: as `npm run admin -- grant` does.
      await database.pool.query('update users set is_privileged = true where lower(email) = $1', [account.email]);
      if (!signedIn.ok) throw new Error(`could not sign in as staff: ${signedIn.status} ${await signedIn.text()}`);
      const cookie = cookiesOf(signedIn);
      const { rows } = await database.pool.query<{ id: string }>('select id from loops order by member_count desc, id limit 1');
      const largest = rows[0]?.id;
      // Page 100 as the web app reaches it: following X-Next-Cursor from the first page.
      let deep = '/api/admin/loops?sort=name';
      for (let page = 1; page < 100; page++) {
        const cursor = (await fetch(`${base}${deep}`, { headers: { cookie } })).headers.get('x-next-cursor');
        if (!cursor) throw new Error(`no X-Next-Cursor on page ${page}`);
        deep = `/api/admin/loops?sort=name&cursor=${encodeURIComponent(cursor)}`;
      }

      const cases: [string, string][] = [
        ['stats', '/api/admin/stats'],
        ['loops, sort recent', '/api/admin/loops?sort=recent'],
        ['loops, sort name', '/api/admin/loops?sort=name'],
        ['loops, sort members', '/api/admin/loops?sort=members'],
        ['loops, page 100 by name (page=)', '/api/admin/loops?sort=name&page=100'],
        ['loops, page 100 by name (cursor)', deep],
        ['loops, search "grace"', '/api/admin/loops?search=grace'],
        ['loops, search "person 1022"', '/api/admin/loops?search=person%201022'],
        ['newsletters', '/api/admin/newsletters'],
        [`largest Loop detail (#${largest})`, `/api/admin/loops/${largest}`],
        [`  the same with all its members`, `/api/admin/loops/${largest}?members=all`],
      ];
      console.log(`\nadmin API on PostgreSQL, ${CONCURRENCY} concurrent, ${REQUESTS} requests each (target p95 < 100 ms)`);
      // CPU per request of the server process and of PostgreSQL's backends for this database:
      // steadier than latency on a shared machine, where other work takes turns on the same cores.
      const cpu = async () => ({ server: cpuMs(server.child.pid ?? 0), postgres: await postgresCpuMs(admin, scratch.name) });
      console.log(
        `  ${''.padEnd(34)} ${'p50'.padStart(9)}    ${'p95'.padStart(9)}    ${'req/s'.padStart(5)}   CPU ms/request: server  PostgreSQL  this client`,
      );
      // BENCH_ONLY=detail runs only the cases whose label contains it (profiling one call).
      for (const [label, pathname] of cases.filter(([label]) => label.includes(process.env.BENCH_ONLY ?? ''))) {
        const before = await cpu();
        t = performance.now();
        const clientCpu = process.cpuUsage();
        const latencies = await load(`${base}${pathname}`, cookie);
        const clientUsage = process.cpuUsage(clientCpu);
        const clientMs = (clientUsage.user + clientUsage.system) / 1000;
        const seconds = (performance.now() - t) / 1000;
        const after = await cpu();
        latencies.sort((a, b) => a - b);
        const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
        const perRequest = (a: number, b: number) => (Number.isFinite(b - a) ? ((b - a) / latencies.length).toFixed(2) : '-').padStart(6);
        console.log(
          `  ${label.padEnd(34)} p50 ${p(0.5).toFixed(1).padStart(6)} ms   p95 ${p(0.95).toFixed(1).padStart(6)} ms   ${String(Math.round(latencies.length / seconds)).padStart(5)}   ${perRequest(before.server, after.server)}  ${perRequest(before.postgres, after.postgres)}  ${perRequest(0, clientMs)}`,
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.close();
    await admin.end();
    await scratch.drop();
  }
}

/** User + system CPU time of a process in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of the PostgreSQL backends connected to one database (same machine only). */
async function postgresCpuMs(admin: pg.Client, database: string): Promise<number> {
  try {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
    return rows.reduce((sum, r) => sum + cpuMs(r.pid), 0);
  } catch {
    return Number.NaN;
  }
}

/**
 * REQUESTS requests, CONCURRENCY at a time, over kept-alive connections. node:http rather than
 * fetch: the load generator shares the machine's two cores with the server and PostgreSQL, and
 * fetch spends about 1.1 ms of CPU per 80 KB answer against about 0.4 ms here, time the server
 * would otherwise have had.
 */
async function load(url: string, cookie: string): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      const request = http.get(url, { agent, headers: { cookie } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`${url}: ${res.statusCode}`))));
        res.on('error', reject);
      });
      request.on('error', reject);
    });
  const latencies: number[] = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next += 1;
          latencies.push(await get());
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return latencies;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
