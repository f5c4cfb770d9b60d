// `npm run bench -- reset-timing [--requests N] [--postgres]`: how long "Forgot password?" (POST
// /api/password-reset) takes for an account that exists and for one that does not. The answer
// must not tell them apart (decision 0027: an unknown account rehearses the same code work and
// throws it away). Builds the app on embedded PGlite in a temporary folder (or, with --postgres,
// on a scratch database on BENCH_POSTGRES_URL's server, default postgres://postgres@127.0.0.1:5432),
// makes N accounts (each asked for once, so every known request texts a new code), then sends N
// known and N unknown requests, interleaved, through the app's own request injection. Prints both
// medians and 90th percentiles in milliseconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { users } from '../../apps/server/src/db/schema';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { createScratchDatabase } from '../scratch-database';

const requestsIndex = process.argv.indexOf('--requests');
const N = requestsIndex > 0 ? Number(process.argv[requestsIndex + 1]) : 300;
const scratch = process.argv.includes('--postgres')
  ? await createScratchDatabase(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
  : undefined;
const dataDir = scratch?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'loop-bench-reset-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: scratch?.url ?? '',
  LOG_LEVEL: 'silent',
  SCHEDULER: 'false',
  AUTO_NEWSLETTERS: 'off',
  PORT: '0',
  AUTH_RATE_LIMIT_PER_IP: '1000000',
});
const app = await buildApp(config);
try {
  const passwordHash = await hashPassword('a bench password');
  const accounts = Array.from({ length: N }, (_, i) => ({
    email: `bench-reset-${i}@example.com`,
    firstName: 'Bench',
    lastName: 'Reset',
    phoneNumber: `+1628${String(3_000_000 + i)}`,
    passwordHash,
  }));
  await app.ctx.db.insert(users).values(accounts);
  const ask = async (login: string) => {
    const start = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/password-reset', payload: { login } });
    if (res.statusCode !== 202) throw new Error(`${res.statusCode} ${res.body}`);
    return performance.now() - start;
  };
  // Warm up both paths (JIT, statement caches) before measuring.
  for (let i = 0; i < 20; i++) await ask(`warm-up-${i}@example.com`);
  const known: number[] = [];
  const unknown: number[] = [];
  for (const [i, account] of accounts.entries()) {
    // Interleaved, and each pair in alternating order, so drift hits both alike.
    if (i % 2 === 0) {
      known.push(await ask(account.email));
      unknown.push(await ask(`nobody-${i}@example.com`));
    } else {
      unknown.push(await ask(`nobody-${i}@example.com`));
      known.push(await ask(account.email));
    }
  }
  const at = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? NaN;
  const line = (name: string, values: number[]) =>
    `${name.padEnd(18)} median ${at(values, 0.5).toFixed(1).padStart(6)} ms   p90 ${at(values, 0.9).toFixed(1).padStart(6)} ms`;
  console.log(`POST /api/password-reset, ${N} requests each (${app.ctx.database.kind}):`);
  console.log(line('known account', known));
  console.log(line('unknown account', unknown));
} finally {
  await app.close();
  if (scratch) await scratch.drop();
  else rmSync(dataDir, { recursive: true, force: true });
}
