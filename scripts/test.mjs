// `npm test`: lint, type-check, then the unit and API tests (Vitest's shared, server and web
// projects), stopping at the first stage that fails. Prints how long each stage took, the figure
// the README's "Test it" section quotes (decision 0046). The slow tests are `npm run test:slow`.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const stages = [
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  ['vitest', ['exec', '--', 'vitest', 'run', '--project', 'shared', '--project', 'server', '--project', 'web', ...process.argv.slice(2)]],
];
const npm = process.env.npm_execpath;
const times = [];
const started = performance.now();
for (const [name, args] of stages) {
  const t = performance.now();
  const result = npm ? spawnSync(process.execPath, [npm, ...args], { stdio: 'inherit' }) : spawnSync('npm', args, { stdio: 'inherit' });
  times.push(`${name} ${Math.round((performance.now() - t) / 1000)} s`);
  if (result.status !== 0) {
    console.error(`\nnpm test stopped: ${name} failed (${times.join(', ')}).`);
    process.exit(result.status ?? 1);
  }
}
const total = Math.round((performance.now() - started) / 1000);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(`\nnpm test took ${total} s: ${times.join(', ')} (load average ${load}).`);
