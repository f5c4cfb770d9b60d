// `npm run bench -- newsletter-page [--pdf DIR]`: what a phone downloads for a public newsletter
// page with 20 photos. Starts Loop on 127.0.0.1 with an embedded database in a temporary folder,
// texts in 20 real-size phone photos (4032 x 3024 JPEGs, through the photo pipeline) from four
// people, sends the newsletter, and opens its page in Chromium (/usr/bin/chromium) 375 px wide at
// pixel densities 1, 2 and 3, scrolled to the end so every lazy photo loads. Prints the bytes
// transferred (as Chromium counts them) against what the originals alone weigh. Target:
// at most 1.5 MB at 375 px. With --pdf DIR it also prints the page to DIR/newsletter-a4.pdf and
// DIR/newsletter-letter.pdf (the print stylesheet).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { loops, media, members, updates, users } from '../../apps/server/src/db/schema';
import { convertPhoto } from '../../apps/server/src/media/photo';
import { putPhoto } from '../../apps/server/src/media/stored-media';
import { templateWriter } from '../../apps/server/src/publishing/template-writer';
import { publishNewsletter } from '../../apps/server/src/services/newsletters/publish-newsletter';
import { createMediaStorage } from '../../apps/server/src/storage/create-storage';
import { phonePhoto } from '../photos/phone-photo';

const PEOPLE = ['Ada', 'Ben', 'Cleo', 'Dev'];
/** Photos per update: single photos (full column) and galleries (tiles). 20 in all. */
const UPDATE_PHOTOS = [1, 3, 1, 2, 4, 1, 3, 1, 2, 2];
const pdfIndex = process.argv.indexOf('--pdf');
const pdfDir = pdfIndex > 0 ? process.argv[pdfIndex + 1] : undefined;

const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-page-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SCHEDULER: 'false', AUTO_NEWSLETTERS: 'off', PORT: '0' });
const app = await buildApp(config);
try {
  const { db } = app.ctx;
  const storage = createMediaStorage(config);
  const start = new Date(Date.now() - 7 * 86_400_000);
  const people = [];
  for (const [i, firstName] of PEOPLE.entries()) {
    const [user] = await db
      .insert(users)
      .values({ firstName, lastName: 'Parker', phoneNumber: `+1415555${String(100 + i).padStart(4, '0')}` })
      .returning();
    if (!user) throw new Error('no user');
    people.push(user);
  }
  const [loop] = await db
    .insert(loops)
    .values({ name: 'The Parkers', creatorId: people[0]!.id, createdAt: new Date(start.getTime() - 86_400_000) })
    .returning();
  if (!loop) throw new Error('no loop');
  for (const person of people) await db.insert(members).values({ loopId: loop.id, userId: person.id });

  let originals = 0;
  let n = 0;
  const raw = Buffer.alloc(4032 * 3024 * 3);
  for (const [i, count] of UPDATE_PHOTOS.entries()) {
    const [update] = await db
      .insert(updates)
      .values({
        loopId: loop.id,
        userId: people[i % people.length]!.id,
        content: `Day ${i + 1}: a walk by the water, dinner with everyone, and a few photos from the afternoon.`,
        createdAt: new Date(start.getTime() + i * 3_600_000 * 12),
      })
      .returning();
    if (!update) throw new Error('no update');
    for (let position = 0; position < count; position++) {
      const original = await phonePhoto(n++, raw);
      originals += original.length;
      const converted = await convertPhoto(original);
      if (!converted.ok) throw new Error(converted.reason);
      const stored = await putPhoto(storage, converted.photo);
      await db.insert(media).values({ ...stored, updateId: update.id, position });
    }
  }
  const sent = await publishNewsletter(db, {
    loopId: loop.id,
    now: new Date(),
    writer: templateWriter,
    publicUrl: config.PUBLIC_URL,
    send: true,
  });
  if (sent.status !== 'sent') throw new Error(`the newsletter was not sent: ${sent.status}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const pageUrl = `http://127.0.0.1:${address.port}/newsletters/${sent.newsletter.urlId}`;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    console.log(`20 photos: the originals weigh ${(originals / 1024 / 1024).toFixed(1)} MB`);
    for (const scale of [1, 2, 3]) {
      const context = await browser.newContext({
        viewport: { width: 375, height: 812 },
        deviceScaleFactor: scale,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      let bytes = 0;
      let images = 0;
      let imageBytes = 0;
      const types = new Map<string, string>();
      cdp.on('Network.responseReceived', (event: { requestId: string; type: string }) => types.set(event.requestId, event.type));
      cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
        bytes += event.encodedDataLength;
        if (types.get(event.requestId) === 'Image') {
          images += 1;
          imageBytes += event.encodedDataLength;
        }
      });
      await page.goto(pageUrl, { waitUntil: 'networkidle' });
      // Scroll to the end a screen at a time: every lazy photo comes into view and loads.
      for (let y = 0; y < Number(await page.evaluate('document.body.scrollHeight')); y += 600) {
        await page.evaluate(`window.scrollTo(0, ${y})`);
        await page.waitForTimeout(60);
      }
      await page.waitForLoadState('networkidle');
      // Photos that would shift the page while loading (the lightbox's empty <img> is filled only when opened).
      const shifted = Number(
        await page.evaluate(
          "[...document.images].filter((img) => img.getAttribute('src') && (!img.getAttribute('width') || !img.getAttribute('height'))).length",
        ),
      );
      console.log(
        `375 px at ${scale}x: ${(bytes / 1024).toFixed(0)} KB transferred in all (${images} photos, ${(imageBytes / 1024).toFixed(0)} KB of photos); images without width/height: ${shifted}`,
      );
      if (pdfDir && scale === 1) {
        for (const format of ['A4', 'Letter'] as const) {
          await page.pdf({ path: path.join(pdfDir, `newsletter-${format.toLowerCase()}.pdf`), format, printBackground: true });
        }
        console.log(`PDFs written to ${pdfDir}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
