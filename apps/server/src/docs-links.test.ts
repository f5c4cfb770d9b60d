import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every reference to a page of docs/ resolves: `docs/x.md#anchor` in code and docs, and relative
 * Markdown links in .md files, name a file that exists and, with an anchor, a heading in it (the
 * anchor GitHub makes of it). The specification and architecture files outside the repository are
 * never referred to: docs/product.md and docs/architecture.md say it in the project's own words.
 */

const THIS_FILE = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(THIS_FILE), '../../..');
const SCANNED = ['apps', 'packages', 'e2e', 'bench', 'docs', 'scripts', 'README.md', 'CONTRIBUTING.md'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'migrations', 'artifacts', 'data', 'test-results']);
const EXTENSIONS = /\.(ts|tsx|js|mjs|md)$/;
// Built from parts, so that this file does not match itself.
const OUTSIDE_FILES = [`SPEC ${'§'}`, `ARCHITECTURE${'.md'}`];

interface SourceFile {
  /** Path from the repository root, with forward slashes. */
  path: string;
  text: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (fenced code skipped; repeated headings get -1, -2...). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = headingAnchor(heading[1]);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Each reference that does not resolve, as "file: reference (why)". */
function brokenReferences(files: readonly SourceFile[]): string[] {
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  const read = (path: string) => byPath.get(path) ?? (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null);
  const problems: string[] = [];
  const check = (from: string, target: string, anchor: string | undefined, shown: string) => {
    const text = read(target);
    if (text === null) problems.push(`${from}: ${shown} (no file ${target})`);
    else if (anchor && target.endsWith('.md') && !anchorsOf(text).has(anchor))
      problems.push(`${from}: ${shown} (no heading #${anchor} in ${target})`);
  };
  for (const { path, text } of files) {
    for (const outside of OUTSIDE_FILES) {
      if (text.includes(outside))
        problems.push(`${path}: "${outside}" (not in the repository: refer to docs/product.md or docs/architecture.md)`);
    }
    for (const m of text.matchAll(/(?<![\w./-])(docs\/[\w./-]*\w\.md)(?:#([\w-]+))?/g)) {
      check(path, m[1] ?? '', m[2], m[0]);
    }
    if (!path.endsWith('.md')) continue;
    for (const m of text.matchAll(/\]\(([^)\s]*?)(?:#([\w-]+))?\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      const resolved = target === '' ? path : relative(ROOT, resolve(ROOT, dirname(path), target)).replaceAll('\\', '/');
      check(path, resolved, m[2], m[0].slice(1));
    }
  }
  return problems;
}

function repositoryFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (path: string) => {
    const full = join(ROOT, path);
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full)) if (!SKIPPED_DIRS.has(entry)) walk(`${path}/${entry}`);
    } else if (EXTENSIONS.test(path) && full !== THIS_FILE) {
      files.push({ path, text: readFileSync(full, 'utf8') });
    }
  };
  for (const top of SCANNED) if (existsSync(join(ROOT, top))) walk(top);
  return files;
}

describe('references to docs/', () => {
  it('all resolve to a file and a heading', () => {
    const files = repositoryFiles();
    expect(files.some((f) => f.path === 'docs/product.md')).toBe(true);
    expect(brokenReferences(files)).toEqual([]);
  });

  it('fails on a reference that points nowhere', () => {
    const page: SourceFile = { path: 'docs/page.md', text: '# Page\n\n## Two words\n\nSee [below](#two-words) and [gone](other.md).\n' };
    const code: SourceFile = { path: 'apps/x.ts', text: '// docs/page.md#two-words, docs/page.md#missing, docs/none.md#a\n' };
    expect(brokenReferences([page, code])).toEqual([
      'docs/page.md: (other.md) (no file docs/other.md)',
      'apps/x.ts: docs/page.md#missing (no heading #missing in docs/page.md)',
      'apps/x.ts: docs/none.md#a (no file docs/none.md)',
    ]);
    expect(brokenReferences([{ path: 'apps/y.ts', text: `// ${OUTSIDE_FILES[0]}2` }])).toHaveLength(1);
  });

  it('makes the anchors GitHub makes', () => {
    expect([...anchorsOf('# A: b, c\n```\n# not a heading\n```\n## The `messages` row\n## Same\n## Same\n')]).toEqual([
      'a-b-c',
      'the-messages-row',
      'same',
      'same-1',
    ]);
  });
});
