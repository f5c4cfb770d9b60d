// `npm run typecheck`: tsc over each TypeScript project, as many at once as the machine has cores
// (tsc uses one), incrementally: each project's build info is kept in node_modules/.cache/tsc, so
// a second run checks only what changed (decision 0046). Exits non-zero when any project fails.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const projects = ['packages/shared', 'apps/server', 'apps/web', 'e2e', 'bench'];
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function check(project) {
  const buildInfo = path.join(root, 'node_modules', '.cache', 'tsc', `${project.replaceAll('/', '-')}.tsbuildinfo`);
  const args = [tsc, '-p', project, '--noEmit', '--incremental', '--tsBuildInfoFile', buildInfo, '--pretty'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ project, code, output }));
  });
}

const queue = [...projects];
const failed = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
      const result = await check(project);
      // Each project's errors are printed together, never interleaved with another's.
      if (result.output) process.stdout.write(result.output);
      if (result.code !== 0) failed.push(project);
    }
  }),
);
if (failed.length > 0) {
  console.error(`Type errors in ${failed.join(', ')}.`);
  process.exit(1);
}
