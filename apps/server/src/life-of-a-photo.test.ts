import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md#the-life-of-a-photo walks a photo from the webhook to the public page as
 * `file:function` hops under apps/server/src/. Each one must stay resolvable: the file exists and
 * defines (or exports) that function, so a rename or a move fails here until the page follows.
 */

const SRC = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(SRC, '../../..');
const HEADING = '## The life of a photo';
const RUNNABLE_FORM = 'apps/server/test/media/photos-flow.test.ts';

/** The section's text: from its heading to the next heading of the same level. */
export function sectionOf(markdown: string, heading: string): string | null {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) return null;
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  return markdown.slice(start, next === -1 ? undefined : next);
}

/** Every `path/file.ts:name` in backticks, in order, without repeats. */
export function hopsIn(section: string): { file: string; name: string }[] {
  const seen = new Set<string>();
  const hops: { file: string; name: string }[] = [];
  for (const m of section.matchAll(/`([\w./-]+\.(?:ts|mjs)):([A-Za-z_$][\w$]*)`/g)) {
    const [, file = '', name = ''] = m;
    if (seen.has(`${file}:${name}`)) continue;
    seen.add(`${file}:${name}`);
    hops.push({ file, name });
  }
  return hops;
}

/**
 * Whether the source defines `name` as a function: a function declaration, a const or let bound
 * to one (an arrow, a handler typed as RouteHandlerMethod, a plugin), or a method of an object.
 */
export function definesFunction(source: string, name: string): boolean {
  const id = name.replace(/\$/g, '\\$');
  return [
    new RegExp(`\\bfunction\\*?\\s+${id}\\s*[<(]`),
    new RegExp(`\\b(?:const|let)\\s+${id}\\s*(?::[^=]+)?=`),
    new RegExp(`^\\s*(?:async\\s+)?${id}\\s*\\([^)]*\\)\\s*(?::[^{]+)?\\{`, 'm'),
  ].some((pattern) => pattern.test(source));
}

/** Each hop that does not resolve, as "file:name (why)". */
export function unresolvedHops(hops: readonly { file: string; name: string }[], read: (file: string) => string | null): string[] {
  const problems: string[] = [];
  for (const { file, name } of hops) {
    const source = read(file);
    if (source === null) problems.push(`${file}:${name} (no file apps/server/src/${file})`);
    else if (!definesFunction(source, name)) problems.push(`${file}:${name} (${file} defines no function ${name})`);
  }
  return problems;
}

describe('docs/architecture.md#the-life-of-a-photo', () => {
  const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = sectionOf(architecture, HEADING);

  it('names only files and functions that exist', () => {
    expect(section).not.toBeNull();
    const hops = hopsIn(section ?? '');
    // The walk from the webhook to the public page: about twenty hops, not a handful.
    expect(hops.length).toBeGreaterThanOrEqual(20);
    const read = (file: string) => (existsSync(join(SRC, file)) ? readFileSync(join(SRC, file), 'utf8') : null);
    expect(unresolvedHops(hops, read)).toEqual([]);
  });

  it('points at its runnable form, which exists', () => {
    expect(section).toContain(RUNNABLE_FORM);
    expect(existsSync(join(ROOT, RUNNABLE_FORM))).toBe(true);
  });

  it('fails on a hop that no longer resolves', () => {
    const page = '# A\n\n## The life of a photo\n\n1. `a.ts:gone` then `a.ts:kept`, `b.ts:x`.\n\n## Next\n\n`c.ts:later`\n';
    const hops = hopsIn(sectionOf(page, HEADING) ?? '');
    expect(hops).toEqual([
      { file: 'a.ts', name: 'gone' },
      { file: 'a.ts', name: 'kept' },
      { file: 'b.ts', name: 'x' },
    ]);
    const files: Record<string, string> = { 'a.ts': 'export async function kept(db: Db) {}\nconst goner = 1;\n' };
    expect(unresolvedHops(hops, (file) => files[file] ?? null)).toEqual([
      'a.ts:gone (a.ts defines no function gone)',
      'b.ts:x (no file apps/server/src/b.ts)',
    ]);
  });

  it('recognizes the ways a function is defined', () => {
    expect(definesFunction('export function f<T>(x: T) {}', 'f')).toBe(true);
    expect(definesFunction('const handler: RouteHandlerMethod = async (request) => {};', 'handler')).toBe(true);
    expect(definesFunction('  return {\n    ingest(params, now) {\n', 'ingest')).toBe(true);
    expect(definesFunction('  async put(bytes) {\n', 'put')).toBe(true);
    expect(definesFunction('callsF(f);', 'f')).toBe(false);
    expect(definesFunction('const fx = 1;', 'f')).toBe(false);
  });
});
