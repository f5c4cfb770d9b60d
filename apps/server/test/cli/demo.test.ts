import { and, count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoCommand } from '../../src/cli/demo';
import { mailLinksOf } from '../../src/mail/links';
import { loops, media, members, messages, newsletters, updates, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { createTestApp, sessionCookie, signUp, type TestContext } from '../helpers/app';

const NOW = new Date('2026-03-18T15:00:00Z');

async function counts(t: TestContext) {
  const db = t.testDb.database.db;
  const n = async (table: typeof users | typeof loops | typeof updates | typeof media | typeof messages | typeof newsletters) =>
    (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return {
    users: await n(users),
    loops: await n(loops),
    updates: await n(updates),
    media: await n(media),
    messages: await n(messages),
    newsletters: await n(newsletters),
  };
}

const demo = (t: TestContext) =>
  runDemoCommand(t.testDb.database.db, {
    publicUrl: t.app.ctx.config.PUBLIC_URL,
    storage: t.app.ctx.storage,
    now: NOW,
    mail: mailLinksOf(t.app.ctx.config),
  });

describe('npm run demo on an empty database', () => {
  let t: TestContext;
  let result: Awaited<ReturnType<typeof runDemoCommand>>;
  beforeAll(async () => {
    t = await createTestApp();
    result = await demo(t);
  });
  afterAll(() => t.close());

  it('fills it and prints the staff account', async () => {
    expect(result.code).toBe(0);
    expect(result.output).toContain('demo@example.com');
    expect(result.output).toMatch(/Password\s+loop-\S{12}/);
    expect(result.output).toContain('/simulator');
    const c = await counts(t);
    // Each Loop: its sent newsletter and its coming issue's draft (decision 0040).
    expect(c).toMatchObject({ loops: 2, updates: 20, newsletters: 4 });
    expect(c.users).toBe(1 + 4 + 3);
    expect(c.media).toBeGreaterThanOrEqual(6);
  });

  it('signs the staff account in with the printed password, as staff', async () => {
    const password = /Password\s+(\S+)/.exec(result.output)?.[1];
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'demo@example.com', password } });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(login);
    const me = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(me.json()).toMatchObject({ firstName: 'Maya', isPrivileged: true });
    const list = await t.app.inject({ url: '/api/loops', headers: { cookie } });
    expect(
      list
        .json<{ name: string }[]>()
        .map((l) => l.name)
        .sort(),
    ).toEqual(['Sunday Trail Runners', 'The Rivera Family']);
  });

  it('shows both review settings: each Loop has a scheduled draft and its owner was texted its link', async () => {
    const db = t.testDb.database.db;
    const rows = await db.select({ name: loops.name, review: loops.newsletterReview, id: loops.id }).from(loops).orderBy(loops.name);
    expect(rows.map((r) => [r.name, r.review])).toEqual([
      ['Sunday Trail Runners', false],
      ['The Rivera Family', true],
    ]);
    for (const loop of rows) {
      const [draft, ...more] = await db
        .select()
        .from(newsletters)
        .where(and(eq(newsletters.loopId, loop.id), eq(newsletters.status, 'draft')));
      expect(more).toEqual([]);
      expect(draft?.sendAt?.getTime()).toBeGreaterThan(NOW.getTime());
      const texts = await db
        .select()
        .from(messages)
        .where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'newsletter_review')));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatchObject({ status: 'sent', toAddress: '+14155550100' });
      expect(texts[0]?.body).toContain(`/loops/${loop.id}/newsletters/${draft?.id}`);
      expect(texts[0]?.body).toContain(loop.review ? 'once you approve it' : 'goes out');
    }
  });

  it('spreads updates over weeks, with photos that are served', async () => {
    const db = t.testDb.database.db;
    const rows = await db.select({ createdAt: updates.createdAt }).from(updates);
    const days = rows.map((r) => (NOW.getTime() - r.createdAt.getTime()) / 86_400_000);
    expect(Math.max(...days)).toBeGreaterThan(14);
    expect(Math.min(...days)).toBeGreaterThan(0);
    const [photo] = await db.select().from(media).limit(1);
    const res = await t.app.inject({ url: `/media/${photo?.storageKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
  });

  it('has sent a newsletter, and the landing page links to it', async () => {
    const config = (await t.app.inject({ url: '/api/config' })).json<{
      links: { exampleNewsletter: string; guide: string; demoVideo: string };
    }>();
    expect(config.links.exampleNewsletter).toMatch(/^\/newsletters\/[A-Za-z0-9_-]{43}$/);
    expect(config.links.guide).toBe('/guide');
    expect(config.links.demoVideo).toBe('/guide#walkthrough');
    const page = await t.app.inject({ url: config.links.exampleNewsletter });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The Rivera Family');
    expect(page.body).toContain('/media/');
  });

  it('uses the configured links instead, when set', async () => {
    const app = await t.rebuild({
      EXAMPLE_NEWSLETTER_URL: 'https://example.com/issue-1',
      DEMO_VIDEO_URL: 'https://video.example.com/loop',
      GUIDE_URL: '/docs/start',
    });
    expect((await app.inject({ url: '/api/config' })).json()).toMatchObject({
      links: { exampleNewsletter: 'https://example.com/issue-1', demoVideo: 'https://video.example.com/loop', guide: '/docs/start' },
    });
  });

  it('leaves no text for the worker to send: the story sent them already', async () => {
    const db = t.testDb.database.db;
    const queued = await db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.status, 'queued'), ne(messages.channel, 'email')));
    expect(queued[0]?.n).toBe(0);
    // The staff account reads the newsletters by e-mail too: the worker hands each Loop's to the
    // Mail Simulator at the first start, with its headers (decision 0047).
    expect(await sweepUntilIdle(t.app.ctx)).toEqual({ inbound: 0, outbound: 2 });
    const password = /Password\s+(\S+)/.exec(result.output)?.[1];
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'demo@example.com', password } });
    const cookie = sessionCookie(login);
    const mail = await t.app.inject({ url: '/api/simulator/mail', headers: { cookie } });
    const emails = mail.json<{
      emails: { to: string; kind: string; status: string; subject: string; html: string | null; headers: Record<string, string> }[];
    }>().emails;
    expect(emails.filter((e) => e.kind === 'newsletter')).toHaveLength(2);
    for (const e of emails) {
      expect(e).toMatchObject({ to: 'demo@example.com', status: 'sent' });
      expect(e.html).toContain('Unsubscribe');
      expect(e.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
    const memberRows = await db.select({ n: count() }).from(members);
    expect(memberRows[0]?.n).toBe(5 + 4);
  });

  it('refuses to run a second time and changes nothing', async () => {
    const before = await counts(t);
    const again = await demo(t);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already has 8 users.*nothing was changed/);
    expect(await counts(t)).toEqual(before);
  });
});

describe('npm run demo on a database with a real account', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses, with a message, and adds nothing', async () => {
    await signUp(t.app);
    const result = await demo(t);
    expect(result).toEqual({ code: 1, output: expect.stringContaining('already has 1 user:') });
    expect(await counts(t)).toMatchObject({ users: 1, loops: 0, updates: 0, media: 0 });
  });
});
