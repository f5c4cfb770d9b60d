import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletters } from '../../src/db/schema';
import { randomToken } from '../../src/lib/tokens';
import { bookFromLoop } from '../../src/paper/book-from-loop';
import { BLEED, renderBookCover, renderBookInterior, spineWidthInches, TRIM } from '../../src/paper/render-book-pdf';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { addUpdate } from '../helpers/newsletters';
import { phoneJpeg } from '../helpers/photos';
import { readPdf } from './pdf-tools';

const LOOK_AT = path.resolve(import.meta.dirname, '../../../../e2e/artifacts/paper');

let t: TestContext;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://loop.example' });
  dir = mkdtempSync(path.join(tmpdir(), 'loop-book-'));
  mkdirSync(LOOK_AT, { recursive: true });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('the year in the Loop (decision 0070)', () => {
  it('is a 6 x 9 in interior with contents, a chapter per issue and page numbers, and a cover whose spine fits it', async () => {
    const owner = await signUp(t.app, { firstName: 'Olive' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'The Book Family', timeZone: 'Europe/Berlin' });
    const photo = await t.app.ctx.storage.put(await phoneJpeg({ width: 1200, height: 900 }));
    await addUpdate(t.app.ctx.db, loop.id, owner.user.id, 'a photo for the cover', [photo]);
    const issue = (n: number, sentAt: Date, extra: Partial<typeof newsletters.$inferInsert> = {}) => ({
      loopId: loop.id,
      urlId: randomToken(),
      status: 'sent' as const,
      title: `Week ${n} at the Book Family`,
      content: `## Olive\n\nWords of week ${n}, written for the book.${n === 2 ? `\n\n![Olive's photo](/media/${photo} "The garden in June")` : ''}`,
      periodEnd: sentAt,
      sentAt,
      ...extra,
    });
    await t.app.ctx.db.insert(newsletters).values([
      issue(1, new Date('2026-01-01T00:30:00+01:00')),
      issue(2, new Date('2026-06-14T10:00:00Z')),
      issue(3, new Date('2026-09-01T10:00:00Z')),
      issue(4, new Date('2026-12-31T22:30:00Z')),
      // Not in the book: the year before (midnight in Berlin), a sneak peek, a draft.
      issue(90, new Date('2025-12-31T22:30:00Z')),
      issue(91, new Date('2026-03-01T10:00:00Z'), { kind: 'sneak_peek' }),
      issue(92, new Date('2026-03-02T10:00:00Z'), { status: 'draft', sentAt: null }),
    ]);

    const found = await bookFromLoop(t.app.ctx.db, t.app.ctx.storage, 'https://loop.example', loop.id, { from: 2026, to: 2026 });
    if (!found) throw new Error('no book');
    expect(found.book.count).toBe(4);
    const file = path.join(dir, 'interior.pdf');
    const pages = await renderBookInterior(found.book, createWriteStream(file));
    expect(pages).toBeGreaterThanOrEqual(32);
    expect(pages % 2).toBe(0);

    const interior = readPdf(readFileSync(file));
    try {
      expect(interior.info['Page size']).toBe('432 x 648 pts');
      expect(Number(interior.info.Pages)).toBe(pages);
      expect(interior.fonts.every((f) => f.embedded)).toBe(true);
      const text = interior.text.replace(/\s+/g, ' ');
      for (const n of [1, 2, 3, 4]) expect(text).toContain(`Words of week ${n}, written for the book.`);
      for (const n of [90, 91, 92]) expect(text).not.toContain(`week ${n}`);
      expect(text).toContain('The garden in June');
      expect(interior.images()).toHaveLength(1);
      // The contents name each chapter's page, and that page opens the chapter.
      const contents = pageText(file, 3);
      expect(contents).toContain('Contents');
      for (const n of [1, 2, 3, 4]) {
        const line = new RegExp(`${n}\\. Week ${n} at the Book Family\\s+(\\d+)`).exec(contents);
        expect(line).not.toBeNull();
        const page = pageText(file, Number(line?.[1]));
        expect(page).toContain(`CHAPTER ${n}`);
        expect(page).toContain(`Words of week ${n}`);
        expect(page.trim().split('\n').at(-1)?.trim()).toBe(line?.[1]);
      }
    } finally {
      interior.close();
    }

    const cover = readPdf(await renderBookCover({ ...found.book, issues: found.book.count, cover: found.firstPhoto() }, pages));
    try {
      const spine = spineWidthInches(pages) * 72;
      const [width, height] = (cover.info['Page size'] ?? '').split(' x ').map((v) => parseFloat(v));
      expect(width).toBeCloseTo(TRIM.width * 2 + spine + BLEED * 2, 1);
      expect(height).toBeCloseTo(TRIM.height + BLEED * 2, 1);
      expect(cover.fonts.every((f) => f.embedded)).toBe(true);
      expect(cover.text).toContain('The Book Family');
      expect(cover.images()).toHaveLength(1);
      cover.pageOnePng(path.join(LOOK_AT, 'book-cover.png'));
    } finally {
      cover.close();
    }
    // Lulu's paperback formula: 444 pages to the inch plus 0.06 in of board.
    expect(spineWidthInches(444)).toBeCloseTo(1.06, 5);
  });
});

function pageText(file: string, page: number): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
}
