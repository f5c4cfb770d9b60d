import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { newsletters } from '../../src/db/schema';
import { randomToken } from '../../src/lib/tokens';
import { pageAssets } from '../../src/publishing/page-assets';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { addUpdate, callAs, generateAs } from '../helpers/newsletters';

let t: TestContext;
let staff: string;
let owner: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com', PUBLIC_URL: 'https://loop.example' });
  staff = (await signUp(t.app, { email: 'staff@example.com' })).cookie;
  owner = await signUp(t.app, { firstName: 'Olive' });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
const page = (urlId: string, cookie?: string) =>
  t.app.inject({ url: `/newsletters/${urlId}`, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });

async function sentNewsletter(name: string, updates: Array<[string, string[]]>) {
  const loop = await createLoopAs(t.app, owner.cookie, { name });
  for (const [content, photos] of updates) await addUpdate(db(), loop.id, owner.user.id, content, photos);
  const draft = await generateAs(t.app, staff, loop.id);
  const sent = await callAs(t.app, staff, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`);
  expect(sent.statusCode).toBe(200);
  return { loopId: loop.id, ...draft };
}

/** Every start tag in the HTML, with its attributes: text never holds a raw "<" once escaped. */
function tagsOf(html: string) {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)].map(([, name, rest]) => ({
    name: (name ?? '').toLowerCase(),
    attributes: [...(rest ?? '').matchAll(/([^\s=/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)].map(([, attr, value]) => ({
      name: (attr ?? '').toLowerCase(),
      value: (value ?? '').replace(/^["']|["']$/g, ''),
    })),
  }));
}

describe('the public newsletter page', () => {
  it('shows a sent newsletter to anyone: Loop name, period, sections, photos, and link-preview tags', async () => {
    const photo = randomToken();
    const sent = await sentNewsletter('The Smiths', [['We went to the beach', [photo, randomToken()]]]);
    const res = await page(sent.urlId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('<h1>The Smiths</h1>');
    expect(html).toMatch(/<p class="period">\w+ \d+, \d{4}<\/p>/);
    expect(html).toContain('<h2>Olive Lovelace</h2>');
    expect(html).toContain('We went to the beach');
    expect(html).toContain(`<a class="photo" href="/media/${photo}"`);
    expect(html).toContain('<dialog class="lightbox"');
    expect(html).toContain(`<meta property="og:title" content="The Smiths: `);
    expect(html).toContain(`<meta property="og:image" content="https://loop.example/media/${photo}">`);
    expect(html).toContain(`<meta property="og:url" content="https://loop.example/newsletters/${sent.urlId}">`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toMatch(/<meta property="og:description" content="Hello, family! [^"]+">/);
    expect(html).not.toContain('Draft preview');
    // Nothing of the web app: one stylesheet and the page's own two small scripts.
    expect(
      tagsOf(html)
        .filter((tag) => tag.name === 'script')
        .map((s) => s.attributes.find((a) => a.name === 'src')?.value),
    ).toEqual([pageAssets.js.path, pageAssets.print.path]);
    expect(html).not.toMatch(/assets\/index|type="module"/);
  });

  it("takes og:image only from Loop's own media, never an outside image in the owner's content (decision 0054)", async () => {
    const photo = randomToken();
    const sent = await sentNewsletter('Outside Images', [['At the lake', [photo]]]);
    const [row] = await db().select({ content: newsletters.content }).from(newsletters).where(eq(newsletters.id, sent.id));
    const outside = '![x](https://tracker.example/pixel.png)';
    await db()
      .update(newsletters)
      .set({ content: `${outside}\n\n${row?.content ?? ''}` })
      .where(eq(newsletters.id, sent.id));
    const html = (await page(sent.urlId)).body;
    expect(html).toContain(`<meta property="og:image" content="https://loop.example/media/${photo}">`);
    expect(html).not.toMatch(/<meta[^>]+content="https:\/\/tracker\.example/);

    const words = await sentNewsletter('Outside Only', [['Just words', []]]);
    await db()
      .update(newsletters)
      .set({ content: `${outside}\n\nJust words` })
      .where(eq(newsletters.id, words.id));
    const only = (await page(words.urlId)).body;
    expect(only).not.toContain('og:image');
    expect(only).toContain('<meta name="twitter:card" content="summary">');
  });

  it("serves its scripts and stylesheet as cacheable files, and leaves the photo viewer's out when there are no photos", async () => {
    for (const asset of Object.values(pageAssets)) {
      const res = await t.app.inject({ url: asset.path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(asset.type);
      expect(res.headers['cache-control']).toContain('immutable');
    }
    expect((await t.app.inject({ url: '/newsletter-assets/other.js' })).statusCode).toBe(404);
    const plain = await sentNewsletter('No photos', [['Just words', []]]);
    const html = (await page(plain.urlId)).body;
    expect(html).not.toContain(pageAssets.js.path);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('og:image');
    expect(html).toContain('<meta name="twitter:card" content="summary">');
  });

  it("shows a draft to staff and the Loop's owner only (decision 0040), marked as a draft, and never cached", async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Drafty' });
    await addUpdate(db(), loop.id, owner.user.id, 'Draft news');
    const draft = await generateAs(t.app, staff, loop.id);

    for (const cookie of [staff, owner.cookie]) {
      const shown = await page(draft.urlId, cookie);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain('Draft preview');
      expect(shown.body).toContain('Draft news');
      expect(shown.headers['cache-control']).toBe('no-store');
    }

    const member = await signUp(t.app);
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.account.phoneNumber });
    const otherOwner = await signUp(t.app);
    await createLoopAs(t.app, otherOwner.cookie, { name: 'Elsewhere' });
    for (const cookie of [undefined, member.cookie, otherOwner.cookie]) {
      const res = await page(draft.urlId, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Draft news');
    }
  });

  it('answers an unknown or malformed link with a friendly 404 page', async () => {
    for (const urlId of [randomToken(), 'nope', '%3Cscript%3E']) {
      const res = await page(urlId);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain("<h1>We couldn't find this newsletter</h1>");
      expect(res.body).not.toContain('<script');
    }
  });
});

const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">click</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  '![x](x" onerror="alert(1))',
  '![x](javascript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<javascript:alert(1)>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '"><script>alert(1)</script>',
  '[x]( javascript:alert(1) "title")',
  '<a href="/media/x" onclick="alert(1)">x</a>',
];

describe('past issues and paper (decision 0042)', () => {
  const archive = (urlId: string, cookie?: string) =>
    t.app.inject({ url: `/newsletters/${urlId}/archive`, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });

  it("each sent newsletter's page links to its Loop's past issues, newest first, and has a print button", async () => {
    const first = await sentNewsletter('Archive Family', [['First news', []]]);
    await addUpdate(db(), first.loopId, owner.user.id, 'Second news');
    const second = await generateAs(t.app, staff, first.loopId);
    expect((await callAs(t.app, staff, 'POST', `/api/loops/${first.loopId}/newsletters/${second.id}/send`)).statusCode).toBe(200);
    const other = await sentNewsletter('Other Family', [['Not theirs', []]]);

    const html = (await page(first.urlId)).body;
    expect(html).toContain(`<a href="/newsletters/${first.urlId}/archive">All past issues</a>`);
    expect(html).toContain('<button type="button" class="print-button" hidden>Print / Save as PDF</button>');

    // Its owner, signed in: the archive is for the Loop's current members (decision 0053).
    const res = await archive(first.urlId, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Archive Family</h1>');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    const links = [...res.body.matchAll(/<li><a href="\/newsletters\/([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([second.urlId, first.urlId]);
    expect(res.body).not.toContain(other.urlId);
    // The second issue's link opens the same archive.
    expect((await archive(second.urlId, owner.cookie)).body).toContain(`href="/newsletters/${first.urlId}"`);
  });

  it("a stranger without a sent newsletter's link gets the 404 page and cannot list anything", async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Secret Family' });
    await addUpdate(db(), loop.id, owner.user.id, 'Draft only');
    const draft = await generateAs(t.app, staff, loop.id);
    for (const [urlId, cookie] of [
      [randomToken(), undefined],
      ['nope', undefined],
      [String(loop.id), undefined],
      [draft.urlId, undefined],
      [draft.urlId, owner.cookie],
    ] as const) {
      const res = await archive(urlId, cookie);
      expect(res.statusCode, urlId).toBe(404);
      expect(res.body).toContain("<h1>We couldn't find this newsletter</h1>");
      expect(res.body).not.toContain('Secret Family');
    }
    // A draft's page (staff) offers no archive link: only a sent newsletter's link opens one.
    expect((await page(draft.urlId, staff)).body).not.toContain('All past issues');
  });
});

describe('cross-site scripting', () => {
  function expectNothingExecutable(html: string) {
    for (const tag of tagsOf(html)) {
      expect(['iframe', 'svg', 'object', 'embed', 'style', 'form', 'input', 'base']).not.toContain(tag.name);
      if (tag.name === 'script')
        expect(
          [pageAssets.js.path, pageAssets.print.path].map((src) => [
            { name: 'src', value: src },
            { name: 'defer', value: '' },
          ]),
        ).toContainEqual(tag.attributes);
      for (const attribute of tag.attributes) {
        expect(attribute.name, `<${tag.name} ${attribute.name}>`).not.toMatch(/^on/);
        expect(attribute.name).not.toBe('style');
        expect(attribute.value, `<${tag.name} ${attribute.name}>`).not.toMatch(/^\s*(javascript|data|vbscript):/i);
        // A link preview's description may quote a payload as text; no other attribute holds one.
        if (tag.name !== 'meta') expect(attribute.value).not.toMatch(/javascript:/i);
        if (['href', 'src'].includes(attribute.name))
          expect(attribute.value).toMatch(
            // The web, our media and assets, and our own pages: the archive and the PDF (decision 0069).
            /^(https?:\/\/|\/media\/|\/newsletter-assets\/|\/newsletters\/[A-Za-z0-9_-]+\/archive$|\/newsletters\/[A-Za-z0-9_-]+\.pdf(\?large=1)?$|\/$)/,
          );
      }
    }
    expect(html.match(/<script/gi)?.length ?? 0).toBeLessThanOrEqual(2);
  }

  it("shows members' payloads as text on the sent page, never as markup", async () => {
    const sent = await sentNewsletter(
      '<script>alert("loop")</script>',
      XSS_CORPUS.map((payload) => [payload, [randomToken()]]),
    );
    const res = await page(sent.urlId);
    expect(res.statusCode).toBe(200);
    expectNothingExecutable(res.body);
    // The payloads are still there for people to read, as text.
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain('[x](javascript:alert(1))');
    expect(res.body).toContain('<h1>&lt;script&gt;alert(&quot;loop&quot;)&lt;/script&gt;</h1>');
  });

  it("makes an editor's raw Markdown and HTML safe too", async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Edited' });
    await addUpdate(db(), loop.id, owner.user.id, 'Something');
    const draft = await generateAs(t.app, staff, loop.id);
    const content = [...XSS_CORPUS, '[fine](https://example.com)', `![ok](/media/${randomToken()})`].join('\n\n');
    expect((await callAs(t.app, staff, 'PUT', `/api/loops/${loop.id}/newsletters/${draft.id}`, { content })).statusCode).toBe(200);
    expect((await callAs(t.app, staff, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`)).statusCode).toBe(200);
    const html = (await page(draft.urlId)).body;
    expectNothingExecutable(html);
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener noreferrer">fine</a>');
  });
});
