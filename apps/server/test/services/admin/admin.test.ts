import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, members, messages, newsletters, phoneOptOuts, users } from '../../../src/db/schema';
import { listAdminLoops } from '../../../src/services/admin/list-admin-loops';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs, insertUpdate } from '../../helpers/loops';

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
      expect(empty).toEqual({ totalLoops: 0, totalMembers: 0, totalUpdates: 0, loopGrowth: [], memberGrowth: [] });

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
        totalUpdates: 0,
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

      // Total Updates is every Loop's updateCount, read fresh while the growth series stay cached.
      const [boss1] = await fresh.testDb.database.db
        .select({ userId: members.userId })
        .from(members)
        .where(eq(members.loopId, a.id))
        .limit(1);
      await insertUpdate(fresh.testDb.database.db, a.id, boss1!.userId, 'First news');
      await insertUpdate(fresh.testDb.database.db, a.id, boss1!.userId, 'More news');
      const after = (await fresh.app.inject({ url: '/api/admin/stats', headers: { cookie: boss } })).json();
      expect(after).toEqual({ ...stats, totalUpdates: 2 });
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
    expect(row).toMatchObject({
      id: zebra.id,
      memberCount: 1,
      creator: { firstName: 'Olga', lastName: 'Petrova', email: 'olga@example.com' },
      lastNewsletter: null,
    });

    expect((await get('/api/admin/loops?sort=size')).statusCode).toBe(400);
    expect((await get('/api/admin/loops?sort=size')).json().message).toBe('Sort must be recent, name or members');
    expect((await get('/api/admin/loops?pageSize=1000')).json().message).toBe('Page size must be from 1 to 200');
  });
});

describe('GET /api/admin/loops: cursors and search', () => {
  type Row = { id: number; name: string };
  const list = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    return {
      rows: res.json<Row[]>(),
      total: res.headers['x-total-count'],
      nextPage: res.headers['x-next-page'],
      cursor: res.headers['x-next-cursor'] as string | undefined,
    };
  };

  it('pages by cursor exactly as by number, in every sort', async () => {
    const made = [];
    for (const [i, name] of ['Pager b', 'pager A', 'Pager c', 'Pager a', 'PAGER d'].entries()) {
      const loop = await createLoopAs(t.app, owner.cookie, { name });
      for (let m = 0; m < i % 3; m++) await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: `+1415555${2000 + i * 10 + m}` });
      made.push(loop.id);
    }
    for (const sort of ['recent', 'name', 'members']) {
      const all = await list(`/api/admin/loops?search=pager&sort=${sort}&pageSize=200`);
      expect(all.rows).toHaveLength(5);
      expect(all.cursor).toBeUndefined();
      const byCursor: Row[] = [];
      let url = `/api/admin/loops?search=pager&sort=${sort}&pageSize=2`;
      for (let page = 1; ; page++) {
        const got = await list(url);
        expect(got.total).toBe('5');
        const byNumber = await list(`/api/admin/loops?search=pager&sort=${sort}&pageSize=2&page=${page}`);
        expect(got.rows).toEqual(byNumber.rows);
        expect(got.nextPage).toBe(byNumber.nextPage);
        byCursor.push(...got.rows);
        if (!got.cursor) {
          expect(got.nextPage).toBeUndefined();
          break;
        }
        expect(got.nextPage).toBe(String(page + 1));
        url = `/api/admin/loops?search=pager&sort=${sort}&pageSize=2&cursor=${encodeURIComponent(got.cursor)}`;
      }
      expect(byCursor.map((r) => r.id)).toEqual(all.rows.map((r) => r.id));
    }
    // Ties in lower-cased name ('pager A', 'Pager a') are broken by id.
    const names = (await list('/api/admin/loops?search=pager&sort=name')).rows.map((r) => r.name);
    expect(names).toEqual(['pager A', 'Pager a', 'Pager b', 'Pager c', 'PAGER d']);
    expect(new Set(made).size).toBe(5);

    // A cursor is the server's own: garbage, or one from another sort, is a 400.
    const first = await list('/api/admin/loops?search=pager&sort=name&pageSize=2');
    for (const bad of [
      'nonsense',
      Buffer.from('["loops:name",1,"x"]').toString('base64url'),
      Buffer.from('["loops:recent",2,"2026-02-30T00:00:00.000000Z",1]').toString('base64url'),
    ]) {
      const res = await get(`/api/admin/loops?sort=recent&cursor=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The cursor is not valid: start again from the first page.');
    }
    expect((await get(`/api/admin/loops?sort=recent&cursor=${first.cursor}`)).statusCode).toBe(400);
  });

  it('searches what the Loop and its creator are called now, and takes every character literally', async () => {
    const host = await signUp(t.app, { firstName: 'Quentin', lastName: 'Blake', email: 'qb@example.com' });
    const loop = await createLoopAs(t.app, host.cookie, { name: 'Under_score club' });
    await createLoopAs(t.app, host.cookie, { name: 'Underxscore club' });
    const names = async (search: string) =>
      (await list(`/api/admin/loops?sort=name&search=${encodeURIComponent(search)}`)).rows.map((r) => r.name);

    expect(await names('under_score')).toEqual(['Under_score club']);
    expect(await names('QUENTIN BLAKE')).toEqual(['Under_score club', 'Underxscore club']);
    expect(await names('qb@EXAMPLE.com')).toEqual(['Under_score club', 'Underxscore club']);
    // A search never matches across the Loop name and its creator's name, even one holding the
    // character that separates them in loops.search_text (the API refuses control characters;
    // the service takes the field-by-field path for it).
    expect(await names('club quentin')).toEqual([]);
    const db = t.testDb.database.db;
    const direct = (search: string) => listAdminLoops(db, { search, sort: 'name', page: 1, pageSize: 50 });
    expect(await direct('club\u001fquentin')).toEqual({ loops: [], total: 0, next: null });
    expect((await direct('score club\u001f')).total).toBe(0);
    expect((await direct('under_score')).loops.map((l) => l.name)).toEqual(['Under_score club']);

    await db.update(loops).set({ name: 'Renamed circle' }).where(eq(loops.id, loop.id));
    expect(await names('under_score')).toEqual([]);
    expect(await names('renamed')).toEqual(['Renamed circle']);
    await db.update(users).set({ firstName: 'Quinn', email: 'quinn@example.com' }).where(eq(users.id, host.user.id));
    expect(await names('quentin')).toEqual([]);
    expect(await names('quinn blake')).toEqual(['Renamed circle', 'Underxscore club']);
    expect(await names('quinn@example')).toEqual(['Renamed circle', 'Underxscore club']);
  });
});

describe('unsearched totals', () => {
  it('stay exact as Loops and newsletters come and go', async () => {
    const db = t.testDb.database.db;
    const totals = async () => ({
      loops: (await get('/api/admin/loops?pageSize=1')).headers['x-total-count'],
      newsletters: (await get('/api/admin/newsletters?pageSize=1')).headers['x-total-count'],
    });
    const counted = async () => ({
      loops: String((await db.select({ n: sql`count(*)`.mapWith(Number) }).from(loops))[0]?.n),
      newsletters: String((await db.select({ n: sql`count(*)`.mapWith(Number) }).from(newsletters))[0]?.n),
    });
    expect(await totals()).toEqual(await counted());
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Short-lived' });
    await db
      .insert(newsletters)
      .values(['a', 'b'].map((x) => ({ loopId: loop.id, urlId: `short-lived-${x}-000000000`, content: x, periodEnd: now })));
    const grown = await totals();
    expect(grown).toEqual(await counted());
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(deleted.statusCode).toBeLessThan(300);
    const shrunk = await totals();
    expect(shrunk).toEqual(await counted());
    expect(Number(grown.loops) - Number(shrunk.loops)).toBe(1);
    expect(Number(grown.newsletters) - Number(shrunk.newsletters)).toBe(2);
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

    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/loops/999999/toggle-pause', headers: { cookie: staff } })).statusCode,
    ).toBe(404);
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
      .values({
        loopId: loop.id,
        urlId: 'draft-url-id-0000000000',
        content: '# Draft',
        periodEnd: now,
        createdAt: new Date('2026-06-01T00:00:00Z'),
      })
      .returning();
    const [sent] = await db
      .insert(newsletters)
      .values({
        loopId: loop.id,
        urlId: 'sent-url-id-00000000000',
        content: '# Sent',
        status: 'sent',
        sentAt: new Date('2026-06-05T00:00:00Z'),
        periodEnd: now,
        createdAt: new Date('2026-05-01T00:00:00Z'),
      })
      .returning();
    // A later sneak peek is history, not the Loop's last newsletter.
    const [sneak] = await db
      .insert(newsletters)
      .values({
        loopId: loop.id,
        kind: 'sneak_peek',
        urlId: 'sneak-url-id-0000000000',
        content: 'Teaser',
        status: 'sent',
        sentAt: new Date('2026-06-07T00:00:00Z'),
        periodEnd: now,
        createdAt: new Date('2026-04-01T00:00:00Z'),
      })
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
    expect(ours[1]).toMatchObject({
      loopName: 'Detail Loop',
      status: 'sent',
      urlId: 'sent-url-id-00000000000',
      content: '# Sent',
      sentAt: '2026-06-05T00:00:00.000Z',
    });
    // One at a time by cursor: the same order, and the same total on every page.
    const walked: number[] = [];
    let url = '/api/admin/newsletters?pageSize=1';
    for (;;) {
      const res = await get(url);
      expect(res.headers['x-total-count']).toBe(String(list.length));
      walked.push(...res.json().map((n: { id: number }) => n.id));
      const cursor = res.headers['x-next-cursor'];
      if (!cursor) break;
      expect(res.headers['x-next-page']).toBe(String(walked.length + 1));
      url = `/api/admin/newsletters?pageSize=1&cursor=${String(cursor)}`;
    }
    expect(walked).toEqual(list.map((n: { id: number }) => n.id));

    const detail = (await get(`/api/admin/loops/${loop.id}`)).json();
    expect(detail).toMatchObject({ name: 'Detail Loop', role: 'staff', lastNewsletter: '2026-06-05T00:00:00.000Z' });
    expect(detail.members).toHaveLength(2);
    expect(detail.updates[0].mediaUrls).toEqual(['/media/k1']);
    expect(detail.newsletters.map((n: { id: number }) => n.id)).toEqual([draft?.id, sent?.id, sneak?.id]);
    expect(detail.newsletters[1].delivery).toEqual({ queued: 0, sent: 0, delivered: 1, failed: 1 });
    expect((await get('/api/admin/loops/424242')).statusCode).toBe(404);

    // Counts of a newsletter sent over two days ago are kept for five minutes; newer ones are exact.
    const [fresh] = await db
      .insert(newsletters)
      .values({
        loopId: loop.id,
        kind: 'sneak_peek',
        urlId: 'fresh-url-id-0000000000',
        content: 'Now',
        status: 'sent',
        sentAt: now,
        periodEnd: now,
        createdAt: now,
      })
      .returning();
    const text = (newsletterId: number | undefined, key: string, status: string) => ({
      direction: 'outbound' as const,
      channel: 'sms' as const,
      kind: 'newsletter',
      toAddress: '+14155559999',
      fromAddress: 'simulator',
      status,
      loopId: loop.id,
      newsletterId,
      idempotencyKey: key,
    });
    await db.insert(messages).values([text(sent?.id, 'late-1', 'queued'), text(fresh?.id, 'fresh-1', 'sent')]);
    const deliveries = async () =>
      new Map(
        (await get(`/api/admin/loops/${loop.id}`)).json().newsletters.map((n: { id: number; delivery: unknown }) => [n.id, n.delivery]),
      );
    let counts = await deliveries();
    expect(counts.get(sent?.id)).toEqual({ queued: 0, sent: 0, delivered: 1, failed: 1 });
    expect(counts.get(fresh?.id)).toEqual({ queued: 0, sent: 1, delivered: 0, failed: 0 });
    const before = now;
    now = new Date(now.getTime() + 6 * 60_000);
    try {
      counts = await deliveries();
      expect(counts.get(sent?.id)).toEqual({ queued: 1, sent: 0, delivered: 1, failed: 1 });
    } finally {
      now = before;
    }
  });

  it('lists the first 200 members of a large Loop unless asked for all of them', async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Big Loop' });
    const db = t.testDb.database.db;
    const people = await db
      .insert(users)
      .values(
        Array.from({ length: 204 }, (_, i) => ({
          firstName: 'Member',
          lastName: String(i),
          phoneNumber: `+1628300${String(i).padStart(4, '0')}`,
        })),
      )
      .returning({ id: users.id });
    await db
      .insert(members)
      .values(people.map((p, i) => ({ loopId: loop.id, userId: p.id, createdAt: new Date(now.getTime() + (i + 1) * 1000) })));

    const first = (await get(`/api/admin/loops/${loop.id}`)).json();
    expect(first.memberCount).toBe(205);
    expect(first.members).toHaveLength(200);
    expect(first.members[0]).toMatchObject({ isCreator: true, user: { firstName: 'Olga' } });
    expect(first.members[199].user.lastName).toBe('198');
    const all = (await get(`/api/admin/loops/${loop.id}?members=all`)).json();
    expect(all.members).toHaveLength(205);
    expect(all.members.slice(0, 200)).toEqual(first.members);
    const bad = await get(`/api/admin/loops/${loop.id}?members=some`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('members must be "all" or left out');
  });
});

describe('POST /api/admin/loops/{id}/bulk-sms', () => {
  it('texts every opted-in member once, skips the opted-out and the pending, and refuses a blank message', async () => {
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Group Message Loop' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550141' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550142' });
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550143' });
    const db = t.testDb.database.db;
    await db.insert(phoneOptOuts).values({ phoneNumber: '+14155550142', reason: 'STOP' });
    const send = (payload: Record<string, unknown>, cookie = staff) =>
      t.app.inject({ method: 'POST', url: `/api/admin/loops/${loop.id}/bulk-sms`, headers: { cookie }, payload });

    const res = await send({ message: '  Family dinner moved to 7pm!  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ queued: 2 });
    const sent = await db
      .select()
      .from(messages)
      .where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'group_message')));
    expect(sent.map((m) => m.toAddress).sort()).toEqual([owner.account.phoneNumber, '+14155550141'].sort());
    expect(new Set(sent.map((m) => m.body))).toEqual(new Set(['"Group Message Loop" from Ada: Family dinner moved to 7pm!']));
    expect(sent.every((m) => m.status === 'queued' && m.direction === 'outbound')).toBe(true);

    const blank = await send({ message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Message must not be blank');
    expect((await send({ message: 'hi' }, owner.cookie)).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/loops/999999/bulk-sms',
          headers: { cookie: staff },
          payload: { message: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      await db
        .select()
        .from(messages)
        .where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'group_message'))),
    ).toHaveLength(2);
  });
});
