import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md#the-life-of-a-photo walks a photo from the webhook to the public page as
 * `file:function` hops under apps/server/src/. Each one must stay resolvable: the file exists and
 * defines (or exports) that function, so a rename or a move fails here until the page follows.
 * Its "calls, in order" lines say which function calls which: each caller's body must call them,
 * in that order, so the walk cannot drift from what the code does while every name still exists.
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

/** The "calls, in order" lines: `- \`caller\` -> \`callee\`, \`callee\``, as hops. */
export function callLinesIn(section: string): { caller: { file: string; name: string }; callees: { file: string; name: string }[] }[] {
  return section
    .split('\n')
    .filter((line) => /^- `[^`]+` -> /.test(line))
    .map((line) => {
      const [left = '', right = ''] = line.split(' -> ');
      const [caller] = hopsIn(left);
      if (!caller) throw new Error(`no caller in: ${line}`);
      return { caller, callees: hopsIn(right) };
    });
}

/**
 * The source of a function: from its definition to the closing brace at its own indent, or to the
 * next declaration there (a one-line arrow).
 */
export function bodyOf(source: string, name: string): string | null {
  const id = name.replace(/\$/g, '\\$');
  const start = new RegExp(`^([ \\t]*)(?:export\\s+)?(?:async\\s+)?(?:function\\*?\\s+${id}\\s*[<(]|(?:const|let)\\s+${id}\\b)`, 'm').exec(
    source,
  );
  if (!start) return null;
  const rest = source.slice(start.index + start[0].length);
  const end = new RegExp(`\\n${start[1] ?? ''}(?:\\}|export |async function |function |const |let |class |interface |type )`).exec(rest);
  return rest.slice(0, end ? end.index : undefined);
}

/** Each caller that does not call its callees in the order given, as "caller: why". */
export function callsOutOfOrder(lines: ReturnType<typeof callLinesIn>, read: (file: string) => string | null): string[] {
  const problems: string[] = [];
  for (const { caller, callees } of lines) {
    const body = bodyOf(read(caller.file) ?? '', caller.name);
    if (body === null) {
      problems.push(`${caller.name}: no top-level function in ${caller.file}`);
      continue;
    }
    let at = -1;
    for (const callee of callees) {
      const found = new RegExp(`\\b${callee.name.replace(/\$/g, '\\$')}\\b`).exec(body.slice(at + 1));
      if (!found) {
        problems.push(`${caller.name}: no call of ${callee.name}${at >= 0 ? ' after the one before it' : ''}`);
        break;
      }
      at += 1 + found.index;
    }
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

  it('says which function calls which, in the order the source calls them', () => {
    const lines = callLinesIn(section ?? '');
    // The webhook, the inbound decision, the scheduler, the texts and the e-mail branch, the page.
    expect(lines.length).toBeGreaterThanOrEqual(9);
    expect(lines.flatMap((line) => line.callees.map((callee) => callee.name))).toEqual(
      expect.arrayContaining(['queueNewsletterEmails', 'newsletterEmails', 'enqueueEmails', 'sendClaimedEmails']),
    );
    const read = (file: string) => (existsSync(join(SRC, file)) ? readFileSync(join(SRC, file), 'utf8') : null);
    expect(callsOutOfOrder(lines, read)).toEqual([]);
  });

  it('fails on a call that is missing or out of order', () => {
    const page = '## The life of a photo\n\n- `a.ts:f` -> `b.ts:g`, `c.ts:h`\n- `a.ts:k` -> `b.ts:g`\n';
    const lines = callLinesIn(sectionOf(`\n${page}`, HEADING) ?? '');
    expect(lines).toHaveLength(2);
    const files: Record<string, string> = {
      'a.ts': 'export async function f() {\n  await h();\n  await g();\n}\nexport const k = () => {\n  return 1;\n};\nfunction g() {}\n',
    };
    expect(callsOutOfOrder(lines, (file) => files[file] ?? null)).toEqual(['f: no call of h after the one before it', 'k: no call of g']);
    files['a.ts'] = 'export async function f() {\n  await g();\n  await h();\n}\nexport const k = () => g();\n';
    expect(callsOutOfOrder(lines, (file) => files[file] ?? null)).toEqual([]);
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
