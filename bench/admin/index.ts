// `npm run bench -- admin`: p95 latency of the admin API with 20 concurrent requests on
// PostgreSQL, on 10,000 Loops, 100,000 members and 1,000,000 updates (a fresh database, dropped
// at the end). Target: every call under 100 ms. Traffic only to 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client';
import { startServer } from '../webhook-ingest/server-process';
import { seedLarge } from './seed-large';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONCURRENCY = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

async function main(): Promise<void> {
  const name = `loop_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  try {
    let t = performance.now();
    await seedLarge(url.toString());
    console.log(`seeded 10,000 Loops, 100,000 members, 1,000,000 updates in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // The real server in its own process, so the load generator does not share its event loop.
    const server = await startServer({ DATABASE_URL: url.toString(), DATA_DIR: dataDir, ADMIN_EMAILS: 'staff@example.com', SCHEDULER: 'false' });
    const base = server.url;
    const registered = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@example.com', password: 'benchmark password', firstName: 'Staff', lastName: 'Member', phoneNumber: '+14155550100' }),
    });
    const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { rows } = await database.pool.query<{ loop_id: string }>('select loop_id from members group by loop_id order by count(*) desc limit 1');
    const largest = rows[0]?.loop_id;

    const cases: [string, string][] = [
      ['stats', '/api/admin/stats'],
      ['loops, sort recent', '/api/admin/loops?sort=recent'],
      ['loops, sort name', '/api/admin/loops?sort=name'],
      ['loops, sort members', '/api/admin/loops?sort=members'],
      ['loops, page 100 by name', '/api/admin/loops?sort=name&page=100'],
      ['loops, search "grace"', '/api/admin/loops?search=grace'],
      ['newsletters', '/api/admin/newsletters'],
      [`largest Loop detail (#${largest})`, `/api/admin/loops/${largest}`],
    ];
    console.log(`\nadmin API on PostgreSQL, ${CONCURRENCY} concurrent, ${REQUESTS} requests each (target p95 < 100 ms)`);
    for (const [label, pathname] of cases) {
      t = performance.now();
      const latencies = await load(`${base}${pathname}`, cookie);
      const seconds = (performance.now() - t) / 1000;
      latencies.sort((a, b) => a - b);
      const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
      console.log(`  ${label.padEnd(34)} p50 ${p(0.5).toFixed(1).padStart(6)} ms   p95 ${p(0.95).toFixed(1).padStart(6)} ms   ${Math.round(latencies.length / seconds)} req/s`);
    }
    await server.stop();
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function load(url: string, cookie: string): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next += 1;
        const start = performance.now();
        const res = await fetch(url, { headers: { cookie } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
