// `npm run bench -- parsing-attack`: /api/health's latency while parsing attacks run against the
// real server (PGlite, simulator mode, production settings; decision 0032), each from a process
// of its own so that sending them takes nothing from the measuring one:
//   1. nothing (the baseline);
//   2. 16 connections sending a mebibyte of nested JSON ([[[[...]]]]) to /api/login, again and again;
//   3. one connection sending 21 MB of nested JSON, and one a 21 MB multipart "video", to the
//      Phone Simulator's message route, signed in;
//   4. all of them together.
// Prints the median, p90 and worst of BENCH_SAMPLES (40) GETs of /api/health in each, and how the
// attacks were answered. All traffic stays on 127.0.0.1; the server is stopped by its pid.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  healthLatencies,
  median,
  signUpOnServer,
  startAttackProcess,
  type AttackName,
} from '../../apps/server/test/helpers/parsing-attack';
import { startServer } from '../../apps/server/test/helpers/server-process';
import { SERVER_NODE_ARGS } from '../server-node-args';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-parsing-'));
const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', SIGNUP_PROOF_OF_WORK: 'off' }, { nodeArgs: SERVER_NODE_ARGS });
try {
  console.log(`parsing attacks against ${server.url} (${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)})`);
  const simulator = await signUpOnServer(server.url);
  const scenarios: [string, { name: AttackName; connections: number }[]][] = [
    ['no attack', []],
    ['16 x 1 MiB nested JSON to /api/login', [{ name: 'nestedSignIn', connections: 16 }]],
    [
      '21 MB to the simulator (nested JSON + multipart)',
      [
        { name: 'nestedSimulator', connections: 1 },
        { name: 'largeUpload', connections: 1 },
      ],
    ],
    [
      'all together',
      [
        { name: 'nestedSignIn', connections: 16 },
        { name: 'nestedSimulator', connections: 1 },
        { name: 'largeUpload', connections: 1 },
      ],
    ],
  ];
  for (const [label, attacks] of scenarios) {
    const attack = attacks.length > 0 ? startAttackProcess(server.url, attacks, simulator) : null;
    await attack?.ready;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const times = await healthLatencies(server.url, SAMPLES);
    const answers = (await attack?.stop()) ?? [];
    console.log(
      `${label.padEnd(50)} /api/health median ${ms(median(times))}, p90 ${ms(percentile(times, 0.9))}, worst ${ms(Math.max(...times))}` +
        (answers.length > 0 ? `; answers ${answers.map((a) => JSON.stringify(a)).join(' ')}` : ''),
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
