// `npm run bench [name]`: runs one benchmark in bench/<name>/, or lists them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, 'index.ts')))
  .map((d) => d.name);
const [name, ...args] = process.argv.slice(2);
if (!name || !names.includes(name)) {
  console.log(names.length ? `Benchmarks: ${names.join(', ')}\nRun one with: npm run bench -- <name>` : 'No benchmarks yet.');
  process.exit(name ? 1 : 0);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, name, 'index.ts'), ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
