// `npm run bench -- postgres-restart`: restarts a real PostgreSQL server while the real Loop
// server is under load, and prints what clients saw. By default it starts a PostgreSQL of its own
// (initdb in a temporary folder, a free port on 127.0.0.1, PG_BIN or /usr/lib/postgresql/15/bin)
// and restarts that one, so nothing else on the machine notices. With BENCH_POSTGRES_URL it uses
// that server and restarts it with PG_RESTART_COMMAND (default `pg_ctlcluster
// --skip-systemctl-redirect 15 main restart`), which breaks every other user of it: only with
// BENCH_RESTART_POSTGRES=yes, by hand, never in the test suite (the tests cut a TCP proxy instead:
// apps/server/test/faults/postgres-restart.test.ts). All traffic stays on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startFakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { cookiesOf, freePort, startServer } from '../../apps/server/test/helpers/server-process';
import { createScratchDatabase } from '../scratch-database';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

interface Postgres {
  url: string;
  restart: string;
  stop: () => void;
}

/** A throwaway PostgreSQL server in a temporary folder (as the postgres user when we are root). */
async function privatePostgres(): Promise<Postgres> {
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-bench-pg-'));
  const root = userInfo().uid === 0;
  if (root) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const port = await freePort();
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
  const as = (command: string) => (root ? `su postgres -c ${quote(command)}` : command);
  const data = path.join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const pgCtl = (action: string) => as(`${bin}/pg_ctl -D ${data} -w -m fast -l ${dir}/log -o "${options}" ${action}`);
  execFileSync('sh', ['-c', as(`${bin}/initdb -D ${data} -A trust -U postgres`)], { stdio: 'ignore' });
  execFileSync('sh', ['-c', pgCtl('start')], { stdio: 'ignore' });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: `${pgCtl('restart')} > /dev/null`,
    stop: () => {
      execFileSync('sh', ['-c', pgCtl('stop')], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function chosenPostgres(): Promise<Postgres> {
  const url = process.env.BENCH_POSTGRES_URL;
  if (!url) return privatePostgres();
  const restart = process.env.PG_RESTART_COMMAND ?? 'pg_ctlcluster --skip-systemctl-redirect 15 main restart';
  if (process.env.BENCH_RESTART_POSTGRES !== 'yes') {
    console.log(
      `This would run "${restart}", which breaks every other user of ${url}.\nRun it with BENCH_RESTART_POSTGRES=yes on a machine of your own, or without BENCH_POSTGRES_URL.`,
    );
    process.exit(1);
  }
  return { url, restart, stop: () => {} };
}

interface Answer {
  at: number;
  status: number;
  body: string;
}

async function main(): Promise<void> {
  const postgres = await chosenPostgres();
  try {
    await measure(postgres);
  } finally {
    postgres.stop();
  }
}

async function measure(postgres: Postgres): Promise<void> {
  const POSTGRES = postgres.url;
  const RESTART = postgres.restart;
  const scratch = await createScratchDatabase(POSTGRES);
  const { name, url, dataDir } = scratch;
  const fake = await startFakeTwilio();
  const server = await startServer({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: '+15005550006',
    TWILIO_API_BASE_URL: fake.url,
  });
  try {
    let holder = '';
    const send = (pathname: string, body: object) =>
      fetch(`${server.url}${pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: holder },
        body: JSON.stringify(body),
      });
    const phoneNumber = '+16282000001';
    const started = await send('/api/register', {
      email: `bench-${name}@example.com`,
      password: 'correct horse battery',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phoneNumber,
      messagingPreference: 'sms',
    });
    // The code works only with the cookie of the form that asked for it.
    holder = cookiesOf(started);
    // Sign-up texts a code: read it where the (fake) Twilio received it.
    let code: string | undefined;
    for (let i = 0; i < 150 && !code; i++) {
      code = /\b(\d{6})\b/.exec(String(fake.sent.find((m) => m.params.To === phoneNumber)?.params.Body ?? ''))?.[1];
      if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const register = await send('/api/register/verify', { phoneNumber, code });
    const cookie = cookiesOf(register);
    const answers: Answer[] = [];
    const latencies: { at: number; ms: number }[] = [];
    const errors: string[] = [];
    const record = (status: number, body: string) => answers.push({ at: performance.now(), status, body });
    // Two loads side by side for the whole run: health (no database) and a signed-in page (the database).
    const hammer = (path: string, headers: Record<string, string> = {}) =>
      autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: 120,
        timeout: 30,
        sampleInt: 100,
        requests: [{ method: 'GET', path, headers, onResponse: (s, b) => record(s, b) }],
      });
    const load = [hammer('/api/health'), hammer('/api/loops', { cookie })];
    for (const instance of load) {
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
        latencies.push({ at: performance.now(), ms }),
      );
      instance.on('reqError', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    }
    await sleep(3000);
    console.log(`restarting PostgreSQL: ${RESTART}`);
    const restartAt = performance.now();
    // Not execSync: the load and the answers keep flowing in this process meanwhile.
    await new Promise<void>((resolve, reject) =>
      spawn(RESTART, { shell: true, stdio: 'inherit' }).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${RESTART} exited ${code}`)),
      ),
    );
    const restartedAt = performance.now();
    let recoveredAt = 0;
    while (!recoveredAt) {
      const ok = await fetch(`${server.url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) recoveredAt = performance.now();
      else await sleep(50);
      if (performance.now() - restartedAt > 60_000) throw new Error('the server did not recover within 60 s');
    }
    await sleep(3000);
    for (const instance of load) instance.stop();
    await Promise.all(load);

    const during = answers.filter((a) => a.at >= restartAt && a.at < recoveredAt);
    const after = answers.filter((a) => a.at >= recoveredAt + 200);
    const statuses = (list: Answer[]) => {
      const counts = new Map<number, number>();
      for (const a of list) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
      return [...counts].map(([status, n]) => `${status}: ${n}`).join(', ');
    };
    const unreadable = during.filter((a) => a.status === 503 && !/database is not reachable|restarting/.test(a.body));
    console.table([
      {
        'restart took ms': Math.round(restartedAt - restartAt),
        'answers during': statuses(during),
        'unreadable 503s': unreadable.length,
        'slowest during ms': Math.round(Math.max(0, ...latencies.filter((l) => l.at >= restartAt && l.at < recoveredAt).map((l) => l.ms))),
        'recovered ms after restart': Math.round(recoveredAt - restartedAt),
        'answers after': statuses(after),
        'client errors': errors.length,
      },
    ]);
  } finally {
    await server.stop();
    await fake.close();
    await scratch.drop();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
