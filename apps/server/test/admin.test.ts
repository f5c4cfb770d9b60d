import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, members, messages, newsletters, phoneOptOuts } from '../src/db/schema';
import { createTestApp, signUp, type TestContext } from './helpers/app';
import { addMemberAs, createLoopAs, insertUpdate } from './helpers/loops';

let now = new Date('2026-06-10T15:00:00Z');
let t: TestContext;
let staff: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let plain: string;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' }, { clock: () => now });
  staff = (await signUp(t.app, { email: 'staff@example.com' })).cookie;
  owner = await signUp(t.app, { firstName: 'Olga', lastName: 'Petrova', email: 'olga@example.com' });
  plain = (await signUp(t.app)).cookie;
});
afterAll(() => t.close());

const get = (url: string, cookie = staff) => t.app.inject({ url, headers: { cookie } });

describe('admin routes refuse everyone but staff', () => {
  const routes: [string, string, Record<string, unknown>?][] = [
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/loops?search=x&sort=name'],
    ['GET', '/api/admin/newsletters'],
    ['GET', '/api/admin/loops/1'],
    ['POST', '/api/admin/loops/1/toggle-pause'],
    ['PUT', '/api/admin/loops/1/frequency', { frequency: 'weekly' }],
  ];
  it.each(routes)('%s %s: 401 signed out, 403 for a member of the public', async (method, url, payload) => {
    const inject = (headers: Record<string, string>) =>
      t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
    const signedOut = await inject({});
    expect(signedOut.statusCode).toBe(401);
    const refused = await inject({ cookie: plain });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This page is for Loop staff only.' });
  });
});

describe('GET /api/admin/stats', () => {
  it('counts Loops and members with a cumulative point per day to today', async () => {
    const fresh = await createTestApp({ ADMIN_EMAILS: 'boss@example.com' }, { clock: () => now });
    try {
      const boss = (await signUp(fresh.app, { email: 'boss@example.com' })).cookie;
      const empty = (await fresh.app.inject({ url: '/api/admin/stats', headers: { cookie: boss } })).json();
      expect(empty).toEqual({ totalLoops: 0, totalMembers: 0, loopGrowth: [], memberGrowth: [] });

      now = new Date('2026-06-08T23:30:00Z');
      const a = await createLoopAs(fresh.app, boss, { name: 'A' });
      now = new Date('2026-06-10T08:00:00Z');
      await createLoopAs(fresh.app, boss, { name: 'B' });
      await addMemberAs(fresh.app, boss, a.id, { phoneNumber: '+14155550101' });
      now = new Date('2026-06-10T15:00:00Z');

      const stats = (await fresh.app.inject({ url: '/api/admin/stats', headers: { cookie: boss } })).json();
      expect(stats).toEqual({
        totalLoops: 2,
        totalMembers: 3,
        loopGrowth: [
          { date: '2026-06-08', count: 1 },
          { date: '2026-06-09', count: 1 },
          { date: '2026-06-10', count: 2 },
        ],
        memberGrowth: [
          { date: '2026-06-08', count: 1 },
          { date: '2026-06-09', count: 1 },
          { date: '2026-06-10', count: 3 },
        ],
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /api/admin/loops', () => {
  it('searches Loop and creator names and emails, sorts, and pages', async () => {
    const zebra = await createLoopAs(t.app, owner.cookie, { name: 'Zebra Club' });
    const apple = await createLoopAs(t.app, owner.cookie, { name: 'apple pickers' });
    const mango = await createLoopAs(t.app, staff, { name: 'Mango 100%' });
    await addMemberAs(t.app, staff, mango.id, { phoneNumber: '+14155550102' });
    await addMemberAs(t.app, staff, mango.id, { phoneNumber: '+14155550103' });
    await addMemberAs(t.app, owner.cookie, apple.id, { phoneNumber: '+14155550104' });

    const names = (res: { json: () => { name: string }[] }) => res.json().map((l) => l.name);
    expect(names(await get('/api/admin/loops'))).toEqual(['Mango 100%', 'apple pickers', 'Zebra Club']);
    expect(names(await get('/api/admin/loops?sort=name'))).toEqual(['apple pickers', 'Mango 100%', 'Zebra Club']);
    expect(names(await get('/api/admin/loops?sort=members'))).toEqual(['Mango 100%', 'apple pickers', 'Zebra Club']);

    expect(names(await get('/api/admin/loops?search=%20%20ZEBRA%20'))).toEqual(['Zebra Club']);
    expect(names(await get('/api/admin/loops?search=petrova&sort=name'))).toEqual(['apple pickers', 'Zebra Club']);
    expect(names(await get('/api/admin/loops?search=olga%20pet&sort=name'))).toEqual(['apple pickers', 'Zebra Club']);
    expect(names(await get('/api/admin/loops?search=OLGA@EXAMPLE'))).toHaveLength(2);
    expect(names(await get('/api/admin/loops?search=100%25'))).toEqual(['Mango 100%']);
    expect(names(await get('/api/admin/loops?search=%25'))).toEqual(['Mango 100%']);
    expect(names(await get('/api/admin/loops?search=%20'))).toHaveLength(3);

    const first = await get('/api/admin/loops?pageSize=2');
    expect(names(first)).toEqual(['Mango 100%', 'apple pickers']);
    expect(first.headers['x-total-count']).toBe('3');
    expect(first.headers['x-next-page']).toBe('2');
    const second = await get('/api/admin/loops?pageSize=2&page=2');
    expect(names(second)).toEqual(['Zebra Club']);
    expect(second.headers['x-next-page']).toBeUndefined();

    const row = (await get('/api/admin/loops?search=zebra')).json()[0];
    expect(row).toMatchObject({ id: zebra.id, memberCount: 1, creator: { firstName: 'Olga', lastName: 'Petrova', email: 'olga@example.com' }, lastNewsletter: null });

    expect((await get('/api/admin/loops?sort=size')).statusCode).toBe(400);
    expect((await get('/api/admin/loops?sort=size')).json().message).toBe('Sort must be recent, name or members');
    expect((await get('/api/admin/loops?pageSize=1000')).json().message).toBe('Page size must be from 1 to 200');
  });
});

describe('pause and frequency', () => {
  it('toggles pause and changes frequency', async () => {
    const loop = await createLoopAs(t.app, owner.cookie);
    const toggle = () => t.app.inject({ method: 'POST', url: `/api/admin/loops/${loop.id}/toggle-pause`, headers: { cookie: staff } });
    expect((await toggle()).json().paused).toBe(true);
    expect((await toggle()).json().paused).toBe(false);

    const setFrequency = (frequency: string) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/loops/${loop.id}/frequency`, headers: { cookie: staff }, payload: { frequency } });
    expect((await setFrequency('monthly')).json().frequency).toBe('monthly');
    const bad = await setFrequency('hourly');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Frequency must be weekly, biweekly or monthly');
    const [row] = await t.testDb.database.db.select().from(loops).where(eq(loops.id, loop.id));
    expect(row?.frequency).toBe('monthly');

    expect((await t.app.inject({ method: 'POST', url: '/api/admin/loops/999999/toggle-pause', headers: { cookie: staff } })).statusCode).toBe(404);
  });
});

describe('newsletters and the admin Loop detail', () => {
  it('lists newsletters newest first and counts deliveries per newsletter', async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Detail Loop' });
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550105' });
    const db = t.testDb.database.db;
    await insertUpdate(db, loop.id, owner.user.id, 'News', ['k1']);
    const [draft] = await db
      .insert(newsletters)
      .values({ loopId: loop.id, urlId: 'draft-url-id-0000000000', content: '# Draft', periodEnd: now, createdAt: new Date('2026-06-01T00:00:00Z') })
      .returning();
    const [sent] = await db
      .insert(newsletters)
      .values({ loopId: loop.id, urlId: 'sent-url-id-00000000000', content: '# Sent', status: 'sent', sentAt: new Date('2026-06-05T00:00:00Z'), periodEnd: now, createdAt: new Date('2026-05-01T00:00:00Z') })
      .returning();
    // A later sneak peek is history, not the Loop's last newsletter.
    const [sneak] = await db
      .insert(newsletters)
      .values({ loopId: loop.id, kind: 'sneak_peek', urlId: 'sneak-url-id-0000000000', content: 'Teaser', status: 'sent', sentAt: new Date('2026-06-07T00:00:00Z'), periodEnd: now, createdAt: new Date('2026-04-01T00:00:00Z') })
      .returning();
    const memberRows = await db.select().from(members).where(eq(members.loopId, loop.id));
    const statuses = ['delivered', 'failed'];
    await db.insert(messages).values(
      memberRows.map((m, i) => ({
        direction: 'outbound' as const,
        channel: 'sms' as const,
        kind: 'newsletter',
        toAddress: `+1415555${1000 + i}`,
        fromAddress: 'simulator',
        status: statuses[i] ?? 'queued',
        userId: m.userId,
        loopId: loop.id,
        newsletterId: sent?.id,
        idempotencyKey: `newsletter:${sent?.id}:${m.id}`,
      })),
    );

    const list = (await get('/api/admin/newsletters')).json();
    const ours = list.filter((n: { loopId: number }) => n.loopId === loop.id);
    expect(ours.map((n: { id: number }) => n.id)).toEqual([sneak?.id, sent?.id, draft?.id]);
    expect(ours[1]).toMatchObject({ loopName: 'Detail Loop', status: 'sent', urlId: 'sent-url-id-00000000000', content: '# Sent', sentAt: '2026-06-05T00:00:00.000Z' });

    const detail = (await get(`/api/admin/loops/${loop.id}`)).json();
    expect(detail).toMatchObject({ name: 'Detail Loop', role: 'staff', lastNewsletter: '2026-06-05T00:00:00.000Z' });
    expect(detail.members).toHaveLength(2);
    expect(detail.updates[0].mediaUrls).toEqual(['/media/k1']);
    expect(detail.newsletters.map((n: { id: number }) => n.id)).toEqual([draft?.id, sent?.id, sneak?.id]);
    expect(detail.newsletters[1].delivery).toEqual({ queued: 0, sent: 0, delivered: 1, failed: 1 });
    expect((await get('/api/admin/loops/424242')).statusCode).toBe(404);
  });
});

describe('POST /api/admin/loops/{id}/bulk-sms', () => {
  it('texts every opted-in member once, skips the opted-out, and refuses a blank message', async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Bulk Loop' });
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550141' });
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550142' });
    const db = t.testDb.database.db;
    await db.insert(phoneOptOuts).values({ phoneNumber: '+14155550142', reason: 'STOP' });
    const send = (payload: Record<string, unknown>, cookie = staff) =>
      t.app.inject({ method: 'POST', url: `/api/admin/loops/${loop.id}/bulk-sms`, headers: { cookie }, payload });

    const res = await send({ message: '  Family dinner moved to 7pm!  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ queued: 2 });
    const bulk = await db.select().from(messages).where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'bulk')));
    expect(bulk.map((m) => m.toAddress).sort()).toEqual([owner.account.phoneNumber, '+14155550141'].sort());
    expect(new Set(bulk.map((m) => m.body))).toEqual(new Set(['Family dinner moved to 7pm!']));
    expect(bulk.every((m) => m.status === 'queued' && m.direction === 'outbound')).toBe(true);

    const blank = await send({ message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Message must not be blank');
    expect((await send({ message: 'hi' }, owner.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/loops/999999/bulk-sms', headers: { cookie: staff }, payload: { message: 'x' } })).statusCode).toBe(404);
    expect(await db.select().from(messages).where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'bulk')))).toHaveLength(2);
  });
});
