// `npm run bench -- test-duration [--cold] [--slow]`: how long `npm test` takes on this machine,
// stage by stage (decision 0046): lint (ESLint, Prettier), type-check (tsc over every
// project), and each Vitest project of `npm test` (shared, server, web) run on its own; with
// --slow also `npm run test:slow` (faults, fuzz, property and multi-process tests). Each stage
// prints its wall time and, where /usr/bin/time exists, the CPU seconds it and its children
// spent, which hardly depend on how busy the machine is, and the load average around it. --cold
// first deletes the caches (ESLint, Prettier, tsc build info, the PGlite template and the ffmpeg
// fixtures in node_modules/.cache) to time a first run on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const vitest = ['node_modules/vitest/vitest.mjs', 'run'];
const stages: [string, string[]][] = [
  ['lint: eslint', ['node_modules/eslint/bin/eslint.js', '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.']],
  ['lint: prettier', ['node_modules/prettier/bin/prettier.cjs', '--check', '--cache', '.']],
  ['typecheck', ['scripts/typecheck.mjs']],
  ['vitest shared', [...vitest, '--project', 'shared']],
  ['vitest server', [...vitest, '--project', 'server']],
  ['vitest web', [...vitest, '--project', 'web']],
  ...(args.includes('--slow')
    ? [['vitest server-slow (npm run test:slow)', [...vitest, '--project', 'server-slow']] as [string, string[]]]
    : []),
];

if (args.includes('--cold')) {
  for (const cache of ['eslint', 'prettier', 'tsc', 'loop-test'])
    rmSync(path.join(root, 'node_modules/.cache', cache), { recursive: true, force: true });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const timer = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const scratch = mkdtempSync(path.join(tmpdir(), 'loop-bench-test-duration-'));
const rows: string[] = [];
let wallTotal = 0;
let cpuTotal = 0;
let failed = false;
for (const [name, command] of stages) {
  const before = load();
  const cpuFile = path.join(scratch, 'cpu');
  const started = performance.now();
  const result = timer
    ? spawnSync(timer, ['-o', cpuFile, '-f', '%U %S', process.execPath, ...command], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawnSync(process.execPath, command, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = (performance.now() - started) / 1000;
  const cpu = timer
    ? readFileSync(cpuFile, 'utf8')
        .trim()
        .split(/\s+/)
        .slice(-2)
        .reduce((sum, s) => sum + Number(s), 0)
    : Number.NaN;
  wallTotal += wall;
  cpuTotal += cpu;
  const ok = result.status === 0;
  failed ||= !ok;
  rows.push(
    `${name.padEnd(40)} ${wall.toFixed(0).padStart(5)} s wall ${Number.isNaN(cpu) ? '    ?' : cpu.toFixed(0).padStart(5)} s CPU   load ${before} -> ${load()}${ok ? '' : '   FAILED'}`,
  );
  console.log(rows.at(-1));
  if (!ok) console.log(result.stderr.toString().slice(-2000));
}
rmSync(scratch, { recursive: true, force: true });
console.log(
  `\ntest-duration: ${availableParallelism()} CPUs; ${args.includes('--cold') ? 'cold caches' : 'warm caches'}; ` +
    `npm test's stages took ${wallTotal.toFixed(0)} s wall (${(wallTotal / 60).toFixed(1)} min), ${cpuTotal.toFixed(0)} s CPU. ` +
    'Wall time grows with the load average; the CPU seconds hardly do.',
);
process.exit(failed ? 1 : 0);
