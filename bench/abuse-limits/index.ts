// `npm run bench -- abuse-limits`: how many code texts 1,000 sign-up attempts from 1,000 addresses
// produce in an hour, limit by limit (decisions 0030 and 0051), then how many honest sign-ups get
// through during an attack (honest-during-attack.ts; `-- --honest` runs only that). Each scenario
// runs the real app (buildApp, embedded PGlite in a temporary folder, the Phone Simulator as
// provider) with a clock that spreads the attempts evenly over one hour, and counts the code texts
// queued. BENCH_ATTEMPTS=n changes the 1,000. No network but 127.0.0.1.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { OFFLINE_TWILIO, startBenchApp } from './bench-app';
import { honestDuringAttack } from './honest-during-attack';

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 1000);
const HOUR_MS = 3_600_000;
const PROOFS_TIMED = Number(process.env.BENCH_PROOFS ?? 10);

interface Scenario {
  name: string;
  env: Record<string, string>;
  /** The phone number of attempt i. */
  phone: (i: number) => string;
  /** The client address of attempt i. */
  address: (i: number) => string;
}

// Valid, distinct US numbers (area code 628), and the kinds SMS pumping uses.
const usPhone = (i: number) => `+1628${String(2_000_000 + i).padStart(7, '0')}`;
const pumpPhones = ['+449090123456', '+881612345678', '+870773111632', '+88216123456', '+33810123456', '+447012345678'];
const manyAddresses = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

const scenarios: Scenario[] = [
  {
    name: 'before: no cap on code texts, no proof-of-work',
    env: { CODE_TEXTS_PER_HOUR: '1000000', SIGNUP_PROOF_OF_WORK: 'off' },
    phone: usPhone,
    address: manyAddresses,
  },
  {
    name: 'unused codes per number prefix (CODE_TEXTS_PER_PREFIX, default 10; 100 prefixes here), proof-of-work off',
    env: { SIGNUP_PROOF_OF_WORK: 'off' },
    phone: usPhone,
    address: manyAddresses,
  },
  {
    name: 'premium-rate, satellite, shared-cost numbers (cap off)',
    env: { CODE_TEXTS_PER_HOUR: '1000000', SIGNUP_PROOF_OF_WORK: 'off' },
    phone: (i) => pumpPhones[i % pumpPhones.length] ?? '',
    address: manyAddresses,
  },
  {
    name: 'numbers in other countries, Twilio in the US (cap off)',
    env: {
      CODE_TEXTS_PER_HOUR: '1000000',
      SIGNUP_PROOF_OF_WORK: 'off',
      ...OFFLINE_TWILIO,
    },
    phone: (i) => `+4915${String(110_000_000 + i)}`,
    address: manyAddresses,
  },
  {
    name: 'one address (per-address limit 50 per 15 minutes; cap off)',
    env: { CODE_TEXTS_PER_HOUR: '1000000', SIGNUP_PROOF_OF_WORK: 'off' },
    phone: usPhone,
    address: () => '198.18.200.1',
  },
];

async function run(scenario: Scenario): Promise<{ texts: number; answers: Map<string, number>; ms: number }> {
  let now = new Date('2026-06-01T12:00:00Z');
  const { app, codeTexts, close } = await startBenchApp(scenario.env, () => now);
  const started = performance.now();
  const answers = new Map<string, number>();
  try {
    for (let i = 0; i < ATTEMPTS; i++) {
      now = new Date(Date.parse('2026-06-01T12:00:00Z') + Math.floor((i * HOUR_MS) / ATTEMPTS));
      const res = await app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: scenario.address(i),
        payload: {
          email: `pump-${i}@example.com`,
          password: 'correct horse battery',
          firstName: 'Pump',
          lastName: 'Er',
          phoneNumber: scenario.phone(i),
        },
      });
      const message = String(res.json<{ message?: string }>().message ?? '').replace(/\d+/g, 'N');
      const key = res.statusCode === 202 ? '202' : `${res.statusCode} ${message.slice(0, 90)}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    return { texts: await codeTexts(), answers, ms: performance.now() - started };
  } finally {
    await close();
  }
}

/** What one proof-of-work costs whoever sends a form: GET a challenge, solve it as the web app does (Node's PBKDF2). */
async function proofCost(): Promise<{ wallMs: number; cpuMs: number }> {
  const { app, close } = await startBenchApp({});
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < PROOFS_TIMED; i++) {
      const { challenge } = (await app.inject({ method: 'GET', url: '/api/proof-of-work' })).json<{ challenge: Challenge }>();
      if (!(await solveChallenge({ challenge, deriveKey }))) throw new Error('not solved');
    }
    const used = process.cpuUsage(cpu);
    return { wallMs: (performance.now() - started) / PROOFS_TIMED, cpuMs: (used.user + used.system) / 1000 / PROOFS_TIMED };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--honest')) return honestDuringAttack();
  console.log(`${ATTEMPTS} sign-up attempts (POST /api/register), spread evenly over one hour, each with a new phone number.\n`);
  for (const scenario of scenarios) {
    const { texts, answers, ms } = await run(scenario);
    console.log(`${String(texts).padStart(5)} code texts  ${scenario.name}  (${(ms / 1000).toFixed(1)} s)`);
    for (const [answer, count] of [...answers].sort((a, b) => b[1] - a[1])) console.log(`        ${String(count).padStart(5)} x ${answer}`);
  }
  const { wallMs, cpuMs } = await proofCost();
  const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
  console.log(
    `\nProof-of-work (on by default, not in the runs above): each attempt first costs its sender ${(cpuMs / 1000).toFixed(2)} s of CPU` +
      ` (${(wallMs / 1000).toFixed(2)} s wall; mean of ${PROOFS_TIMED}, Node's PBKDF2, load average ${load}),` +
      ` so ${ATTEMPTS} attempts cost ${((cpuMs * ATTEMPTS) / 60_000).toFixed(1)} CPU-minutes before any limit.`,
  );
  await honestDuringAttack();
}

await main();
