// `npm run bench -- bundle-size`: the JavaScript a first visit downloads, gzipped, from the build
// in apps/web/dist (run `npm run build` first). A page's first download is index.html's module
// script, everything it imports statically (the modulepreloads), and the page's own lazy chunk with
// its static imports. The bars: landing and sign-in at most 150 KB; the opened newsletter editor at
// most 200 KB.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/dist');
const assets = path.join(dist, 'assets');
const LIMIT_KB = 150;

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('No build in apps/web/dist: run `npm run build` first.');
  process.exit(1);
}

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
if (!entry) throw new Error('index.html has no module script');
const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');

const gzipped = new Map<string, number>();
const sizeOf = (file: string) => {
  let size = gzipped.get(file);
  if (size === undefined) gzipped.set(file, (size = gzipSync(readFileSync(path.join(assets, file)), { level: 9 }).length));
  return size;
};

/** A chunk and everything it imports statically ("import ... from './x.js'", "import './x.js'"). */
function closure(start: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(assets, file), 'utf8');
    for (const match of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]*?from\s*)?["']\.\/([\w.-]+\.js)["']/g)) {
      if (match[1]) queue.push(match[1]);
    }
  }
  return seen;
}

/** The lazy chunk that `from` loads with import("./<name>-hash.js"): a route page, or a part of one. */
function lazyChunk(from: Iterable<string>, name: string): string {
  for (const file of from) {
    const code = readFileSync(path.join(assets, file), 'utf8');
    const found = new RegExp(`import\\(\\s*[\`"']\\./(${name}-[\\w-]+\\.js)[\`"']\\s*\\)`).exec(code)?.[1];
    if (found) return found;
  }
  throw new Error(`nothing imports a chunk named ${name}-*.js lazily`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const shell = closure([entry, ...preloads]);
const signIn = new Set([...shell, ...closure([lazyChunk(shell, 'auth')])]);
const pages: [string, Set<string>][] = [
  ['landing page (/ signed out)', shell],
  ['sign-in page (/auth)', signIn],
];
// Not a bar: what Sign Up (the phone picker and its country data) adds once someone asks for it.
const signUp = new Set([...signIn, ...closure([lazyChunk(signIn, 'sign-up-form')])]);

console.log(`JavaScript of a first visit, gzipped (level 9), from ${path.relative(process.cwd(), dist)}\n`);
console.log('Shell (index.html module script and its static imports):');
for (const file of [...shell].sort((a, b) => sizeOf(b) - sizeOf(a))) console.log(`  ${kb(sizeOf(file)).padStart(9)}  ${file}`);
let failed = false;
console.log('');
for (const [name, files] of pages) {
  const total = [...files].reduce((sum, f) => sum + sizeOf(f), 0);
  const extra = [...files].filter((f) => !shell.has(f));
  const ok = total <= LIMIT_KB * 1024;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${name}: ${kb(total)} of ${LIMIT_KB} KB${extra.length ? `  (shell + ${extra.map((f) => `${f} ${kb(sizeOf(f))}`).join(', ')})` : ''}`,
  );
}
const signUpTotal = [...signUp].reduce((sum, f) => sum + sizeOf(f), 0);
console.log(`     after switching to Sign Up (loaded on demand): ${kb(signUpTotal)}`);

// The newsletter editor (staff's route; the owner's review page loads the same editor): the route's
// page, then the rich editor it loads lazily as soon as it opens, with their static imports.
const EDITOR_LIMIT_KB = 200;
const editorPage = closure([lazyChunk(shell, 'newsletter-editor')]);
const editor = new Set([...shell, ...editorPage, ...closure([lazyChunk(editorPage, 'rich-newsletter-editor')])]);
const editorTotal = [...editor].reduce((sum, f) => sum + sizeOf(f), 0);
const editorOk = editorTotal <= EDITOR_LIMIT_KB * 1024;
failed ||= !editorOk;
console.log(
  `${editorOk ? 'ok  ' : 'OVER'} newsletter editor (/admin/loops/{id}/newsletters/{id}, opened): ${kb(editorTotal)} of ${EDITOR_LIMIT_KB} KB  (shell + ${[
    ...editor,
  ]
    .filter((f) => !shell.has(f))
    .sort((a, b) => sizeOf(b) - sizeOf(a))
    .map((f) => `${f} ${kb(sizeOf(f))}`)
    .join(', ')})`,
);

// What the server actually sends a browser that accepts brotli: the .br files the build wrote.
const servedSize = (file: string) => {
  const br = path.join(assets, `${file}.br`);
  return existsSync(br) ? readFileSync(br).length : readFileSync(path.join(assets, file)).length;
};
console.log("\nAs served to a browser that accepts brotli (the build's .br files):");
for (const [name, files] of pages) console.log(`     ${name}: ${kb([...files].reduce((sum, f) => sum + servedSize(f), 0))}`);
const lazy = readdirSync(assets).filter((f) => f.endsWith('.js') && !shell.has(f));
const lazyTotal = lazy.reduce((sum, f) => sum + sizeOf(f), 0);
console.log(
  `\nLoaded later, on their pages: ${lazy.length} chunks, ${kb(lazyTotal)} (admin: ${lazy.filter((f) => f.startsWith('admin')).join(', ') || 'none'})`,
);
process.exitCode = failed ? 1 : 0;
