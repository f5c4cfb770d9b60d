import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Staff is one word in the web app (docs/product.md#glossary): the wire's `isPrivileged` is read
 * only by `isStaff` (lib/current-user.ts); staff's code is `features/staff`, named after staff
 * although its URLs are `/admin` and `/api/admin`; the newsletter editor, which the owner's
 * review page uses too, is `features/newsletters`.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

describe('staff in the web app', () => {
  const files = sourceFiles(SRC);

  it('reads the wire field isPrivileged in one place', () => {
    const readers = files.filter((file) => readFileSync(join(SRC, file), 'utf8').includes('isPrivileged'));
    expect(readers).toEqual(['lib/current-user.ts']);
  });

  it('names features and their code after staff, not admin', () => {
    expect(files.filter((file) => file.startsWith('features/admin/'))).toEqual([]);
    const adminNames = files.flatMap((file) =>
      [
        ...readFileSync(join(SRC, file), 'utf8').matchAll(
          /\b(?:use|get)Admin\w*|\badmin(?:Keys|\w*QueryOptions)\b|\bADMIN_(?:LIST|DASHBOARD)\w*/g,
        ),
      ].map((m) => `${file}: ${m[0]}`),
    );
    expect(adminNames).toEqual([]);
  });

  it('keeps the newsletter editor in features/newsletters, outside staff', () => {
    expect(files).toContain('features/newsletters/components/newsletter-editor.tsx');
    expect(files.filter((file) => file.startsWith('features/staff/') && /newsletter-editor|rich-editor/.test(file))).toEqual([]);
  });
});
