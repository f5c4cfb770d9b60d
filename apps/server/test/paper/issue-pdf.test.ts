import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/db/schema';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { addUpdate, callAs, generateAs } from '../helpers/newsletters';
import { phoneJpeg } from '../helpers/photos';
import { readPdf } from './pdf-tools';

/** Where page 1 of each layout is kept as a PNG, to be looked at (git-ignored like every artifact). */
const LOOK_AT = path.resolve(import.meta.dirname, '../../../../e2e/artifacts/paper');

let t: TestContext;
let staff: string;
let owner: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com', PUBLIC_URL: 'https://loop.example' });
  staff = (await signUp(t.app, { email: 'staff@example.com' })).cookie;
  owner = await signUp(t.app, { firstName: 'Olive', lastName: 'Lovelace', email: 'olive.private@example.com' });
  mkdirSync(LOOK_AT, { recursive: true });
});
afterAll(() => t.close());

const db = () => t.app.ctx.db;
const pdfOf = (urlId: string, query = '', cookie?: string) =>
  t.app.inject({ url: `/newsletters/${urlId}.pdf${query}`, ...(cookie ? { headers: { cookie } } : {}) });

/** A photo as a phone sends it (camera, GPS, time), stored as is: the PDF must not carry any of it. */
async function storedPhoto(width: number, height: number) {
  return t.app.ctx.storage.put(await phoneJpeg({ width, height }));
}

/** A voice memo (with its transcript) and a video with its poster, as the clip pipeline stores them. */
async function addClips(loopId: number, userId: number) {
  const update = await addUpdate(db(), loopId, userId, 'Two clips from the garden');
  const memoKey = await t.app.ctx.storage.put(Buffer.from('not really audio'));
  const videoKey = await t.app.ctx.storage.put(Buffer.from('not really video'));
  const posterKey = await storedPhoto(640, 360);
  const memo = await t.app.ctx.storage.put(Buffer.from('memo row key'));
  const video = await t.app.ctx.storage.put(Buffer.from('video row key'));
  await db()
    .insert(media)
    .values([
      {
        updateId: update.id,
        storageKey: memo,
        contentType: 'audio/mp4',
        bytes: 16,
        position: 0,
        variants: [{ width: 0, height: 0, key: memoKey, bytes: 16, durationMs: 42_000 }],
        transcript: 'The owls came back to the oak tree tonight',
      },
      {
        updateId: update.id,
        storageKey: video,
        contentType: 'video/mp4',
        bytes: 16,
        position: 1,
        width: 640,
        height: 360,
        variants: [
          { width: 640, height: 360, key: posterKey, bytes: 100 },
          { width: 640, height: 360, key: videoKey, bytes: 16, durationMs: 5_000 },
        ],
      },
    ]);
  return { memo: `/media/${memo}`, video: `/media/${video}` };
}

async function sentIssue(name: string, timeZone = 'Europe/London') {
  const loop = await createLoopAs(t.app, owner.cookie, { name, timeZone });
  const photos = [await storedPhoto(1600, 1200), await storedPhoto(900, 1200)];
  await addUpdate(db(), loop.id, owner.user.id, 'We went to the beach and Grandpa found a crab', photos);
  await addUpdate(db(), loop.id, owner.user.id, 'Baking bread all afternoon\nthe kitchen smelled wonderful');
  const clips = await addClips(loop.id, owner.user.id);
  const draft = await generateAs(t.app, staff, loop.id);
  const sent = await callAs(t.app, staff, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`);
  expect(sent.statusCode).toBe(200);
  return { loopId: loop.id, photos, clips, ...draft };
}

describe('GET /newsletters/{urlId}.pdf (decision 0069)', () => {
  it('is a print-ready A4 PDF: fonts embedded, every update, photos without metadata, QR codes to the clips', async () => {
    const issue = await sentIssue('The Paper Smiths');
    const res = await pdfOf(issue.urlId, '?size=a4');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="the-paper-smiths-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const pdf = readPdf(res.rawPayload);
    try {
      expect(pdf.info['Page size']).toBe('595.28 x 841.89 pts (A4)');
      expect(pdf.info.Author).toBe('Loop');
      expect(pdf.info.Title).toMatch(/^The Paper Smiths: /);
      // Every font is embedded (subset): nothing is left to the printer's or viewer's fonts.
      expect(pdf.fonts.length).toBeGreaterThanOrEqual(2);
      expect(pdf.fonts.every((f) => f.embedded && f.unicode)).toBe(true);
      expect(pdf.fonts.map((f) => f.name).join(' ')).toMatch(/Literata/);
      const words = pdf.text.replace(/\s+/g, ' ');
      for (const said of [
        'The Paper Smiths',
        'We went to the beach and Grandpa found a crab',
        'Baking bread all afternoon the kitchen smelled wonderful',
        'Two clips from the garden',
        'The owls came back to the oak tree tonight',
        'Olive Lovelace',
        `https://loop.example${issue.clips.memo}`,
        `https://loop.example${issue.clips.video}`,
        'Page 1 of',
      ]) {
        expect(words).toContain(said);
      }
      // Nothing of the owner but their name: not their e-mail, in the text or anywhere in the file.
      expect(res.rawPayload.includes('olive.private')).toBe(false);
      // Two photos and the video's poster, each re-encoded as a JPEG with no EXIF (no GPS, no camera), no XMP.
      const images = pdf.images();
      expect(images).toHaveLength(3);
      for (const image of images) {
        expect(image.name).toMatch(/\.jpg$/);
        const meta = await sharp(image.bytes).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
      }
      expect(images.map((i) => i.bytes.length)).not.toContain(0);
      for (const trace of ['GPS', 'iPhone', 'London', 'Apple']) expect(res.rawPayload.includes(trace)).toBe(false);
      // The best stored size: the 1600 px photo is placed at its full 1600 px, not a thumbnail.
      const widths = await Promise.all(images.map(async (i) => (await sharp(i.bytes).metadata()).width));
      expect(widths).toContain(1600);
      const png = pdf.pageOnePng(path.join(LOOK_AT, 'issue-a4-page1.png'));
      const page = await sharp(png).metadata();
      expect([page.width, page.height]).toEqual([827, 1170]);
    } finally {
      pdf.close();
    }
  });

  it('comes in US Letter and in large type (Atkinson Hyperlegible), and Letter by default in the Americas', async () => {
    const issue = await sentIssue('Big Print Family', 'America/Chicago');
    const res = await pdfOf(issue.urlId, '?large=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/-large-type\.pdf"$/);
    const pdf = readPdf(res.rawPayload);
    try {
      expect(pdf.info['Page size']).toBe('612 x 792 pts (letter)');
      expect(pdf.fonts.every((f) => f.embedded)).toBe(true);
      expect(pdf.fonts.map((f) => f.name).join(' ')).toMatch(/AtkinsonHyperlegible/);
      expect(pdf.text.replace(/\s+/g, ' ')).toContain('We went to the beach and Grandpa found a crab');
      const png = pdf.pageOnePng(path.join(LOOK_AT, 'issue-letter-large-page1.png'));
      expect((await sharp(png).metadata()).width).toBe(850);
    } finally {
      pdf.close();
    }
    const a4 = readPdf((await pdfOf(issue.urlId, '?size=a4&large=0')).rawPayload);
    expect(a4.info['Page size']).toBe('595.28 x 841.89 pts (A4)');
    a4.close();
  });

  it('prints what a member wrote as text, never as markup, script or a link that runs', async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Markup Loop', timeZone: 'Europe/Paris' });
    const member = await signUp(t.app, { firstName: 'Mallory' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.user.phoneNumber });
    await addUpdate(
      db(),
      loop.id,
      member.user.id,
      '<script>alert(1)</script> **not bold** [click](javascript:alert(1)) <img src=x onerror=alert(2)>',
    );
    const draft = await generateAs(t.app, staff, loop.id);
    await callAs(t.app, staff, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`);
    const res = await pdfOf(draft.urlId);
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload);
    try {
      const words = pdf.text.replace(/\s+/g, ' ');
      expect(words).toContain('<script>alert(1)</script> **not bold** [click](javascript:alert(1)) <img src=x onerror=alert(2)>');
      // No action a viewer would run: no JavaScript, no launch, no javascript: address.
      const raw = res.rawPayload.toString('latin1');
      expect(raw).not.toMatch(/\/JavaScript|\/JS\b|\/Launch|\/URI \(javascript:/);
    } finally {
      pdf.close();
    }
  });

  it("follows the page's access rules: a draft for its owner and staff only; strangers get the page's 404", async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Draft Loop', timeZone: 'Europe/London' });
    const member = await signUp(t.app, { firstName: 'Mia' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.user.phoneNumber });
    await addUpdate(db(), loop.id, owner.user.id, 'Still a draft');
    const draft = await generateAs(t.app, staff, loop.id);
    const stranger = (await signUp(t.app, { firstName: 'Stan' })).cookie;

    for (const cookie of [undefined, stranger, member.cookie]) {
      const res = await pdfOf(draft.urlId, '', cookie);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain("We couldn't find this newsletter");
    }
    for (const cookie of [owner.cookie, staff]) {
      const res = await pdfOf(draft.urlId, '', cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const pdf = readPdf(res.rawPayload);
      expect(pdf.text).toContain('NEWSLETTER (DRAFT)');
      expect(pdf.text).toContain('Still a draft');
      pdf.close();
    }
    // An unknown or malformed link is the same 404; a query it does not know is a 400 that says why.
    expect((await pdfOf('A'.repeat(43))).statusCode).toBe(404);
    expect((await pdfOf('..%2F..%2Fetc')).statusCode).toBe(404);
    for (const [query, message] of [
      ['?size=a3', 'Size must be a4 or letter'],
      ['?large=yes', 'Large must be 1 (large type) or 0'],
      ['?size=a4&debug=1', 'Only size and large can be asked of a PDF'],
    ] as const) {
      const res = await pdfOf(draft.urlId, query, owner.cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
  });

  it('is offered on the public page: Download PDF and Large-type PDF', async () => {
    const issue = await sentIssue('Button Family');
    const html = (await t.app.inject({ url: `/newsletters/${issue.urlId}` })).body;
    expect(html).toContain(`<a class="pdf-link" href="/newsletters/${issue.urlId}.pdf" download>Download PDF</a>`);
    expect(html).toContain(`<a class="pdf-link" href="/newsletters/${issue.urlId}.pdf?large=1" download>Large-type PDF</a>`);
  });
});
