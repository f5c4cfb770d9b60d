// `npm run bench -- paper [--out DIR]`: the paper edition (decision 0069). Builds, with an
// embedded database in a temporary folder, a newsletter of 20 real-size phone photos (4032 x 3024
// JPEGs through the photo pipeline, so stored at 320/640/1280 px WebP) from four people, sends it,
// then, in a fresh server process on that folder (so the figures are the PDF's, not the photo
// pipeline's), asks GET /newsletters/{urlId}.pdf for A4, then US Letter in large type, and prints
// the time of each, the PDF's size and pages, and the process's peak RSS. Targets: under 5 s,
// peak RSS under 512 MB on 2 cores. Then a year of 52 weekly issues (four of those photos each)
// as a 6 x 9 in book, interior and cover (decision 0070): target under 2 minutes. With --out DIR
// the PDFs are kept there.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { buildApp } from '../../apps/server/src/app';

const PEOPLE = ['Ada', 'Ben', 'Cleo', 'Dev'];
/** Photos per update: single photos and galleries, 20 in all. */
const UPDATE_PHOTOS = [1, 3, 1, 2, 4, 1, 3, 1, 2, 2];
const here = fileURLToPath(import.meta.url);

async function setUp(dataDir: string): Promise<string> {
  const { buildApp } = await import('../../apps/server/src/app');
  const { loadConfig } = await import('../../apps/server/src/config');
  const { loops, media, members, updates, users } = await import('../../apps/server/src/db/schema');
  const { convertPhoto } = await import('../../apps/server/src/media/photo');
  const { putPhoto } = await import('../../apps/server/src/media/stored-media');
  const { templateWriter } = await import('../../apps/server/src/publishing/template-writer');
  const { publishNewsletter } = await import('../../apps/server/src/services/newsletters/publish-newsletter');
  const { createMediaStorage } = await import('../../apps/server/src/storage/create-storage');
  const { phonePhoto } = await import('../photos/phone-photo');
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
    const raw = Buffer.alloc(4032 * 3024 * 3);
    let n = 0;
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
        const converted = await convertPhoto(await phonePhoto(n++, raw));
        if (!converted.ok) throw new Error(converted.reason);
        await db.insert(media).values({ ...(await putPhoto(storage, converted.photo)), updateId: update.id, position });
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
    return sent.newsletter.urlId;
  } finally {
    await app.close();
  }
}

async function measure(dataDir: string, urlId: string, out: string | undefined) {
  const { buildApp } = await import('../../apps/server/src/app');
  const { loadConfig } = await import('../../apps/server/src/config');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SCHEDULER: 'false', AUTO_NEWSLETTERS: 'off', PORT: '0' });
  const app = await buildApp(config);
  try {
    const baseline = process.resourceUsage().maxRSS / 1024;
    for (const [label, query] of [
      ['A4', '?size=a4'],
      ['Letter, large type', '?size=letter&large=1'],
      ['A4 again (fonts read)', '?size=a4'],
    ] as const) {
      const started = performance.now();
      const res = await app.inject({ url: `/newsletters/${urlId}.pdf${query}` });
      const seconds = (performance.now() - started) / 1000;
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
      const pages = /\/Type \/Pages[\s\S]*?\/Count (\d+)/.exec(res.rawPayload.toString('latin1'))?.[1] ?? '?';
      console.log(
        `20-photo issue, ${label}: ${seconds.toFixed(2)} s, ${(res.rawPayload.length / 1024 / 1024).toFixed(1)} MB, ${pages} pages, ` +
          `peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (server after start: ${baseline.toFixed(0)} MB)`,
      );
      if (out) writeFileSync(path.join(out, `issue-${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.pdf`), res.rawPayload);
    }
    // The two halves of a request: reading the issue (database, photos from storage to JPEG) and drawing it.
    const { findPublicNewsletter } = await import('../../apps/server/src/services/newsletters/find-public-newsletter');
    const { issueFromNewsletter } = await import('../../apps/server/src/paper/issue-from-newsletter');
    const { renderIssuePdf } = await import('../../apps/server/src/paper/render-issue-pdf');
    const found = await findPublicNewsletter(app.ctx.db, urlId);
    if (!found) throw new Error('no newsletter');
    let started = performance.now();
    const issue = await issueFromNewsletter(app.ctx.db, app.ctx.storage, config.PUBLIC_URL, found);
    const read = (performance.now() - started) / 1000;
    started = performance.now();
    await renderIssuePdf(issue, { size: 'a4', large: false });
    const drawn = (performance.now() - started) / 1000;
    console.log(`of which: reading the issue and its 20 photos ${read.toFixed(2)} s, drawing the PDF ${drawn.toFixed(2)} s`);
    console.log(
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, ${(process.resourceUsage().maxRSS / 1024 - baseline).toFixed(0)} MB over the server's after start; load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
    );
    await measureBook(app, found, out);
  } finally {
    await app.close();
  }
}

/**
 * A year of weekly issues (52), each with four of the 20 photos in turn and the same words, as a
 * 6 x 9 in book: interior streamed to a file, then the cover (decision 0070).
 */
async function measureBook(
  app: Awaited<ReturnType<typeof buildApp>>,
  found: { newsletter: { loopId: number; content: string } },
  out: string | undefined,
) {
  const { newsletters } = await import('../../apps/server/src/db/schema');
  const { randomToken } = await import('../../apps/server/src/lib/tokens');
  const { bookFromLoop } = await import('../../apps/server/src/paper/book-from-loop');
  const { renderBookCover, renderBookInterior, spineWidthInches } = await import('../../apps/server/src/paper/render-book-pdf');
  const photos = found.newsletter.content.match(/!\[[^\]]*\]\(\/media\/[A-Za-z0-9_-]+[^)]*\)/g) ?? [];
  const words = found.newsletter.content.replace(/!\[[^\]]*\]\([^)]*\)/g, '');
  const year = 2020;
  await app.ctx.db.insert(newsletters).values(
    Array.from({ length: 52 }, (_, week) => {
      const sentAt = new Date(Date.UTC(year, 0, 4 + week * 7, 12));
      const four = [0, 1, 2, 3].map((k) => photos[(week * 4 + k) % photos.length]).join('\n');
      return {
        loopId: found.newsletter.loopId,
        urlId: randomToken(),
        status: 'sent' as const,
        title: `Week ${week + 1}`,
        content: `${words}\n\n${four}`,
        periodEnd: sentAt,
        sentAt,
      };
    }),
  );
  const before = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  const book = await bookFromLoop(app.ctx.db, app.ctx.storage, app.ctx.config.PUBLIC_URL, found.newsletter.loopId, {
    from: year,
    to: year,
  });
  if (!book) throw new Error('no book');
  const dir = out ?? mkdtempSync(path.join(tmpdir(), 'loop-bench-book-'));
  const file = path.join(dir, 'book-interior.pdf');
  const pages = await renderBookInterior(book.book, createWriteStream(file));
  const interior = (performance.now() - started) / 1000;
  const cover = await renderBookCover({ ...book.book, issues: book.book.count, cover: book.firstPhoto() }, pages);
  const seconds = (performance.now() - started) / 1000;
  if (out) writeFileSync(path.join(out, 'book-cover.pdf'), cover);
  console.log(
    `52-issue book (208 photos), 6 x 9 in: ${pages} pages, interior ${interior.toFixed(1)} s (${(statSync(file).size / 1024 / 1024).toFixed(0)} MB), with the cover ${seconds.toFixed(1)} s; ` +
      `spine ${spineWidthInches(pages).toFixed(3)} in; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (before the book: ${before.toFixed(0)} MB)`,
  );
  if (!out) rmSync(dir, { recursive: true, force: true });
}

const [mode, dir, urlId] = process.argv.slice(2);
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '.') : undefined;
if (mode === 'measure' && dir && urlId) {
  await measure(dir, urlId, out);
} else if (mode === 'setup' && dir) {
  process.stdout.write(`urlId=${await setUp(dir)}\n`);
} else {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-paper-'));
  try {
    // Each step in its own process: the photo pipeline's memory is not counted against the PDF's.
    const node = [process.execPath, ['--import', 'tsx', here]] as const;
    const setup = spawnSync(node[0], [...node[1], 'setup', dataDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const id = /urlId=(\S+)/.exec(setup.stdout)?.[1];
    if (setup.status !== 0 || !id) throw new Error(`set-up failed: ${setup.stdout}`);
    const run = spawnSync(node[0], [...node[1], 'measure', dataDir, id, ...(out ? ['--out', out] : [])], { stdio: 'inherit' });
    if (run.status !== 0) process.exitCode = 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
