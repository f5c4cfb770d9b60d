import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions/README.md indexes every decision record: each `NNNN-title.md` is linked from one
 * row of its table that also gives the record's title, and the index names no record that is not
 * there, each once and in the order of their numbers. A new record fails here until it is added to
 * the index.
 */

const DECISIONS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'docs/decisions');

describe('docs/decisions/README.md', () => {
  const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
  const records = readdirSync(DECISIONS).filter((name) => /^\d{4}-.+\.md$/.test(name));

  it('has a row with the number, the link and the title of every record', () => {
    expect(records.length).toBeGreaterThan(40);
    const missing = records.filter((name) => {
      const title = /^# \d{4}: (.+)$/m.exec(readFileSync(join(DECISIONS, name), 'utf8'))?.[1] ?? '';
      const row = index.split('\n').find((line) => line.includes(`[${name.slice(0, 4)}](${name})`));
      return !row || !row.includes(title);
    });
    expect(missing).toEqual([]);
  });

  it('links no record that does not exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.filter((name) => !records.includes(name ?? ''))).toEqual([]);
  });

  it('lists each record once, in the order of their numbers', () => {
    const rows = [...index.matchAll(/^\| \[(\d{4})\]\(/gm)].map((m) => m[1] ?? '');
    expect(rows.length).toBe(records.length);
    expect(rows).toEqual([...rows].sort());
  });
});
