// `npm test`: lint and type-check side by side, then the unit and API tests (Vitest's shared,
// server and web projects), stopping when a stage fails. Prints how long each stage took, the
// figure the README's "Test it" section quotes (decision 0046). The slow tests are
// `npm run test:slow`.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

const npm = process.env.npm_execpath;
const vitest = ['exec', '--', 'vitest', 'run', '--project', 'shared', '--project', 'server', '--project', 'web', ...process.argv.slice(2)];

/**
 * Runs one npm script and answers its exit code and seconds. `pipe` keeps its output until it
 * ends, so two stages at once never interleave their lines.
 */
function run(name, args, stdio) {
  const started = performance.now();
  const child = npm ? spawn(process.execPath, [npm, ...args], { stdio }) : spawn('npm', args, { stdio });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      process.stdout.write(output);
      resolve({ name, code: code ?? 1, seconds: Math.round((performance.now() - started) / 1000) });
    });
  });
}

const started = performance.now();
const times = [];
const stop = (failed) => {
  console.error(`\nnpm test stopped: ${failed.map((s) => s.name).join(' and ')} failed (${times.join(', ')}).`);
  process.exit(failed[0]?.code ?? 1);
};
// ESLint and tsc each use about one core; on two cores together they take little longer than
// the slower of them alone (decision 0046).
const checks = await Promise.all([run('lint', ['run', 'lint'], 'pipe'), run('typecheck', ['run', 'typecheck'], 'pipe')]);
for (const check of checks) times.push(`${check.name} ${check.seconds} s`);
const failedChecks = checks.filter((c) => c.code !== 0);
if (failedChecks.length > 0) stop(failedChecks);
const tests = await run('vitest', vitest, 'inherit');
times.push(`vitest ${tests.seconds} s`);
if (tests.code !== 0) stop([tests]);
const total = Math.round((performance.now() - started) / 1000);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(`\nnpm test took ${total} s: ${times.join(', ')} (load average ${load}).`);
