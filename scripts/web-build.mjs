// Builds the web app when its build is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/shared/src',
  'package-lock.json',
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function webBuildIsStale() {
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

/** Vite is a development tool: a production install (`npm ci --omit=dev`) has none. */
export function canBuildWeb() {
  try {
    createRequire(path.join(root, 'apps/web/package.json')).resolve('vite/package.json');
    return true;
  } catch {
    return false;
  }
}

export function buildWebIfStale() {
  if (!webBuildIsStale()) return;
  if (!canBuildWeb()) {
    // A production install serves the build it was given, as it is.
    if (existsSync(built)) return;
    console.error(
      [
        'The web app is not built, and this install cannot build it: Vite, a development dependency, is not installed',
        '(`npm ci --omit=dev`). Build it first with the development dependencies, then install for production:',
        '  npm ci && npm run build && npm ci --omit=dev && npm start',
      ].join('\n'),
    );
    process.exit(1);
  }
  console.log('Building the web app (first start, or its sources changed)...');
  const result = spawnSync('npm', ['run', 'build', '-w', '@loop/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The web app did not build: see the errors above.');
    process.exit(result.status ?? 1);
  }
}
