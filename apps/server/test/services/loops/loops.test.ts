import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invites, loops, media, members, messages, newsletters, updates } from '../../../src/db/schema';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, BROWSER_ZONE, createLoopAs, insertUpdate } from '../../helpers/loops';
import { addUpdate, callAs, generateAs } from '../../helpers/newsletters';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' });
});
afterAll(() => t.close());

describe('POST /api/loops', () => {
  it('creates a Loop with the defaults, the creator as first member, and smsStatus simulated (texts go to the Phone Simulator)', async () => {
    const { user, cookie } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie },
      payload: {
        name: '  Weekend Crew ',
        context: 'College friends',
        vibe: ['friends', 'funny'],
        creatorId: user.id,
        timeZone: 'Europe/Paris',
      },
    });
    expect(res.statusCode).toBe(201);
    const loop = res.json();
    expect(loop).toMatchObject({
      name: 'Weekend Crew',
      context: 'College friends',
      vibe: ['friends', 'funny'],
      frequency: 'biweekly',
      reminderSchedule: [
        { day: 'thursday', time: '09:00' },
        { day: 'sunday', time: '17:00' },
      ],
      timeZone: 'Europe/Paris',
      creatorId: user.id,
      paused: false,
      memberCount: 1,
      updateCount: 0,
      lastNewsletter: null,
      smsStatus: 'simulated',
    });
    expect(loop.creator.firstName).toBe('Ada');
    expect(new Date(loop.createdAt).toString()).not.toBe('Invalid Date');
    // When the first newsletter goes, as the Loop's page then says it.
    const schedule = await t.app.inject({ url: `/api/loops/${loop.id}/newsletters`, headers: { cookie } });
    expect(loop.nextNewsletterAt).toBe(schedule.json().nextNewsletterAt);
    expect(new Date(loop.nextNewsletterAt).getTime()).toBeGreaterThan(new Date(loop.createdAt).getTime());
  });

  it.each([
    [{ vibe: [] }, 'Please select at least one newsletter vibe'],
    [{ vibe: undefined }, 'Please select at least one newsletter vibe'],
    [{ vibe: ['grumpy'] }, 'Vibe must be one of: family, friends, parents, co-workers, solo, fun, casual, funny, formal, deep'],
    [{ name: '   ' }, 'Loop name is required'],
    [{ name: 'x'.repeat(101) }, 'Loop name must be at most 100 characters'],
    [{ timeZone: 'Mars/Olympus' }, 'Time zone must be an IANA name such as "America/New_York"'],
    [{ frequency: 'daily' }, 'Frequency must be weekly, biweekly or monthly'],
    [{ reminderSchedule: [{ day: 'monday', time: '09:03' }] }, 'Reminder time must be HH:MM on a 5-minute step, from 00:00 to 23:55'],
    [
      {
        reminderSchedule: [
          { day: 'monday', time: '09:00' },
          { day: 'monday', time: '10:00' },
        ],
      },
      'Reminder schedule has a weekday twice: give each day one time',
    ],
  ])('refuses %j with a 400', async (change, message) => {
    const { cookie } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie },
      payload: { name: 'Loop', vibe: ['family'], timeZone: BROWSER_ZONE, ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it("refuses a creatorId that is not the signed-in person's", async () => {
    const { cookie } = await signUp(t.app);
    const { user: other } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie },
      payload: { name: 'Hijack', vibe: ['family'], creatorId: other.id },
    });
    expect(res.statusCode).toBe(403);
    expect(await t.testDb.database.db.select().from(loops).where(eq(loops.name, 'Hijack'))).toHaveLength(0);
  });
});

describe('GET /api/loops', () => {
  it("lists only the person's own Loops, newest first, with counts", async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app);
    const first = await createLoopAs(t.app, owner.cookie, { name: 'First' });
    const second = await createLoopAs(t.app, owner.cookie, { name: 'Second' });
    await createLoopAs(t.app, friend.cookie, { name: "Friend's" });
    await addActiveMemberAs(t.app, owner.cookie, second.id, { phoneNumber: friend.account.phoneNumber });
    await insertUpdate(t.testDb.database.db, second.id, friend.user.id, 'Hello');

    const mine = (await t.app.inject({ url: '/api/loops', headers: { cookie: owner.cookie } })).json();
    expect(mine.map((l: { name: string }) => l.name)).toEqual(['Second', 'First']);
    expect(mine[0]).toMatchObject({ memberCount: 2, updateCount: 1 });
    expect(mine[1]).toMatchObject({ id: first.id, memberCount: 1, updateCount: 0 });

    const theirs = (await t.app.inject({ url: '/api/loops', headers: { cookie: friend.cookie } })).json();
    expect(theirs.map((l: { name: string }) => l.name).sort()).toEqual(["Friend's", 'Second']);
  });
});

describe('GET /api/loops/{id}', () => {
  it('shows members oldest first and updates newest first with their photos', async () => {
    const owner = await signUp(t.app, { firstName: 'Olive' });
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550199', firstName: 'Milo' });
    const db = t.testDb.database.db;
    await insertUpdate(db, loop.id, member.userId, 'Older news');
    await insertUpdate(db, loop.id, owner.user.id, 'Newer news', ['key-one', 'key-two']);

    const res = await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    const detail = res.json();
    expect(detail.role).toBe('owner');
    expect(detail.members.map((m: { user: { firstName: string } }) => m.user.firstName)).toEqual(['Olive', 'Milo']);
    expect(detail.members[1]).toMatchObject({ context: null, isCreator: false, user: { phoneNumber: '+14155550199', email: null } });
    expect(detail.updates.map((u: { content: string }) => u.content)).toEqual(['Newer news', 'Older news']);
    expect(detail.updates[0]).toMatchObject({ mediaUrls: ['/media/key-one', '/media/key-two'], user: { firstName: 'Olive' } });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999999999999'])('answers 400 for the id %s', async (id) => {
    const { cookie } = await signUp(t.app);
    const res = await t.app.inject({ url: `/api/loops/${id}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^The id /);
  });
});

describe('PUT /api/loops/{id}', () => {
  it('takes a full merged Loop, a reminder schedule alone, or context and vibe', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const full = (await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })).json();
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie }, payload });

    const merged = await put({ ...full, context: 'New context', creatorId: 999, role: 'staff' });
    expect(merged.statusCode).toBe(200);
    // Fields that are not settings (the creator, the role) are ignored.
    expect(merged.json()).toMatchObject({ context: 'New context', creatorId: owner.user.id, paused: false, frequency: 'biweekly' });

    const schedule = await put({
      reminderSchedule: [
        { day: 'sunday', time: '18:30' },
        { day: 'monday', time: '09:00' },
      ],
    });
    expect(schedule.json().reminderSchedule).toEqual([
      { day: 'monday', time: '09:00' },
      { day: 'sunday', time: '18:30' },
    ]);

    const vibe = await put({ context: '', vibe: ['deep', 'formal'] });
    expect(vibe.json()).toMatchObject({ context: null, vibe: ['deep', 'formal'] });

    const zone = await put({ timeZone: 'Asia/Tokyo' });
    expect(zone.json().timeZone).toBe('Asia/Tokyo');

    expect((await put({ vibe: [] })).json().message).toBe('Please select at least one newsletter vibe');
  });
});

describe('DELETE /api/loops/{id}', () => {
  it('removes the Loop with its members, updates, media, invites in one go', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550198' });
    await t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } });
    const db = t.testDb.database.db;
    const update = await insertUpdate(db, loop.id, owner.user.id, 'Bye', ['photo-key']);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    expect(await db.select().from(loops).where(eq(loops.id, loop.id))).toHaveLength(0);
    expect(await db.select().from(members).where(eq(members.loopId, loop.id))).toHaveLength(0);
    expect(await db.select().from(updates).where(eq(updates.loopId, loop.id))).toHaveLength(0);
    expect(await db.select().from(media).where(eq(media.updateId, update.id))).toHaveLength(0);
    expect(await db.select().from(invites).where(eq(invites.loopId, loop.id))).toHaveLength(0);
    expect((await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(404);
  });
});

describe('members', () => {
  it('adds a new phone as a text-only person, and refuses the same phone twice', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const add = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/members`, headers: { cookie: owner.cookie }, payload });

    const res = await add({ firstName: ' Nana ', lastName: 'Jones', phoneNumber: '(415) 555-0123', email: '', context: 'Grandma' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ context: 'Grandma', user: { firstName: 'Nana', phoneNumber: '+14155550123', email: null } });

    const again = await add({ firstName: 'Someone', lastName: 'Else', phoneNumber: '+1 415 555 0123' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This person is already a member of this Loop.');

    // Text-only people cannot sign in: they have no password.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nana@example.com', password: 'anything-at-all' },
    });
    expect(login.statusCode).toBe(401);
  });

  it.each([
    [{ firstName: '' }, 'First name is required'],
    [{ lastName: 'x'.repeat(101) }, 'Last name must be at most 100 characters'],
    [{ email: 'nope' }, 'Email must be a valid email address'],
    [{ phoneNumber: '' }, 'Phone number is required'],
    [{ phoneNumber: '+1 555' }, 'Phone number must be a valid international number, like +1 415 555 0100'],
  ])('refuses %j with a 400', async (change, message) => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner.cookie },
      payload: { firstName: 'A', lastName: 'B', phoneNumber: '+14155550111', ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('attaches an existing account found by phone without changing its name', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app, { firstName: 'Real' });
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber, firstName: 'Fake' });
    expect(member.userId).toBe(friend.user.id);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: friend.cookie } })).json().firstName).toBe('Real');
  });

  it('removes a member but never the creator', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550133' });
    const detail = (await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })).json();
    const creatorMember = detail.members.find((m: { isCreator: boolean }) => m.isCreator);

    const creatorRes = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/members/${creatorMember.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(creatorRes.statusCode).toBe(400);
    expect(creatorRes.json().message).toBe("The Loop's creator cannot be removed. Delete the Loop instead.");

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/members/${member.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/members/${member.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('updates', () => {
  it('lets a member delete their own update but not someone else’s', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber });
    const db = t.testDb.database.db;
    const own = await insertUpdate(db, loop.id, friend.user.id, 'Mine');
    const others = await insertUpdate(db, loop.id, owner.user.id, 'Theirs');

    const del = (id: number, cookie: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}/updates/${id}`, headers: { cookie } });
    expect((await del(others.id, friend.cookie)).statusCode).toBe(403);
    expect((await del(own.id, friend.cookie)).statusCode).toBe(200);
    expect((await del(own.id, friend.cookie)).statusCode).toBe(404);
    expect((await del(others.id, owner.cookie)).statusCode).toBe(200);
  });

  it('cannot reach an update of another Loop through this Loop', async () => {
    const owner = await signUp(t.app);
    const a = await createLoopAs(t.app, owner.cookie, { name: 'A' });
    const b = await createLoopAs(t.app, owner.cookie, { name: 'B' });
    const inB = await insertUpdate(t.testDb.database.db, b.id, owner.user.id, 'In B');
    const res = await t.app.inject({ method: 'DELETE', url: `/api/loops/${a.id}/updates/${inB.id}`, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(404);
  });
});

describe('schedule columns', () => {
  it('are set at creation and recomputed when the schedule or zone changes', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { timeZone: 'America/New_York' });
    const db = t.testDb.database.db;
    const read = async () => (await db.select().from(loops).where(eq(loops.id, loop.id)))[0]!;
    const created = await read();
    expect(created.nextReminderAt).toBeInstanceOf(Date);
    expect(created.nextReminderAt!.getTime()).toBeGreaterThan(Date.now());
    expect(created.nextNewsletterAt).toBeInstanceOf(Date);

    await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}`,
      headers: { cookie: owner.cookie },
      payload: { reminderSchedule: [] },
    });
    expect((await read()).nextReminderAt).toBeNull();

    await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}`,
      headers: { cookie: owner.cookie },
      payload: { reminderSchedule: [{ day: 'monday', time: '07:05' }], timeZone: 'Asia/Tokyo' },
    });
    const moved = await read();
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(moved.nextReminderAt!);
    expect(local).toBe('Monday 07:05');
  });
});

describe('welcome texts and photo files', () => {
  it('queues a welcome text to the creator and one invitation per added member', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Welcome Loop' });
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550177' });
    const db = t.testDb.database.db;
    const texts = await db.select().from(messages).where(eq(messages.loopId, loop.id)).orderBy(messages.id);
    expect(texts.map((m) => [m.kind, m.toAddress])).toEqual([
      ['welcome', owner.account.phoneNumber],
      ['invitation', '+14155550177'],
    ]);
    expect(texts[0]?.body).toMatch(/^Welcome to "Welcome Loop" on Loop!/);
    expect(texts[1]?.body).toMatch(/^Loop: Ada Lovelace invited you to "Welcome Loop" \(.* Reply YES to join, /);
  });

  it('says how to share with one Loop only to someone in another Loop too', async () => {
    const owner = await signUp(t.app);
    const first = await createLoopAs(t.app, owner.cookie, { name: 'First Loop' });
    const second = await createLoopAs(t.app, owner.cookie, { name: 'Second Loop' });
    const db = t.testDb.database.db;
    const welcome = async (loopId: number) =>
      (
        await db
          .select()
          .from(messages)
          .where(and(eq(messages.loopId, loopId), eq(messages.kind, 'welcome')))
      )[0]?.body;
    expect(await welcome(first.id)).toBe(
      `Welcome to "First Loop" on Loop! Text this number anytime with your news and photos, and they'll go into the group's newsletter. Reply HELP for help, STOP to opt out.`,
    );
    expect(await welcome(second.id)).toContain(
      `You're in several Loops: start with "Second Loop:" to share with this one only. Reply HELP`,
    );
  });

  it('removes photo files with their update and with their Loop', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const storage = t.app.ctx.storage;
    const [first, second] = [await storage.put(Buffer.from('one')), await storage.put(Buffer.from('two'))];
    const db = t.testDb.database.db;
    const update = await insertUpdate(db, loop.id, owner.user.id, 'Photo', [first]);
    await insertUpdate(db, loop.id, owner.user.id, 'Another', [second]);

    await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}/updates/${update.id}`, headers: { cookie: owner.cookie } });
    expect(await storage.get(first)).toBeNull();
    expect(await storage.get(second)).not.toBeNull();
    await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(await storage.get(second)).toBeNull();
  });
});

describe('the owner pauses, resumes and schedules their Loop', () => {
  const put = (cookie: string, loopId: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/api/loops/${loopId}`, headers: { cookie }, payload });
  const nextAt = async (loopId: number) =>
    (await t.testDb.database.db.select({ at: loops.nextNewsletterAt }).from(loops).where(eq(loops.id, loopId)))[0]?.at;

  it('pauses and resumes: GET shows it, and staff see the same Loop paused', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { timeZone: 'UTC' });
    expect((await put(owner.cookie, loop.id, { paused: true })).json()).toMatchObject({ paused: true });
    const read = await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(read.json()).toMatchObject({ paused: true, frequency: 'biweekly', newsletterDay: 'sunday', newsletterTime: '18:00' });
    const [row] = await t.testDb.database.db.select({ paused: loops.paused }).from(loops).where(eq(loops.id, loop.id));
    expect(row?.paused).toBe(true);
    expect((await put(owner.cookie, loop.id, { paused: false })).json()).toMatchObject({ paused: false });
    expect((await put(owner.cookie, loop.id, { paused: 'yes' })).json().message).toBe(
      'paused must be true (pause the Loop) or false (resume it)',
    );
  });

  it("sets the frequency, the newsletter's day and time: the next newsletter moves to that slot in the Loop's zone", async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { timeZone: 'America/New_York' });
    const res = await put(owner.cookie, loop.id, { frequency: 'weekly', newsletterDay: 'friday', newsletterTime: '17:30' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ frequency: 'weekly', newsletterDay: 'friday', newsletterTime: '17:30' });
    const at = await nextAt(loop.id);
    // A Friday, 17:30 in New York.
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(at ?? undefined);
    expect(local).toBe('Friday 17:30');
    expect(at!.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    const monthly = await put(owner.cookie, loop.id, { frequency: 'monthly' });
    expect(monthly.json().frequency).toBe('monthly');
    const monthEnd = await nextAt(loop.id);
    const next = new Date(monthEnd!.getTime() + 86_400_000);
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', day: 'numeric' }).format(next)).toBe('1');
  });

  it('refuses a newsletter time in quiet hours and a made-up frequency or day, and changes nothing', async () => {
    const quiet = await createTestApp({ QUIET_HOURS: '21:00-08:00' });
    try {
      const owner = await signUp(quiet.app);
      const loop = await createLoopAs(quiet.app, owner.cookie);
      const late = await quiet.app.inject({
        method: 'PUT',
        url: `/api/loops/${loop.id}`,
        headers: { cookie: owner.cookie },
        payload: { newsletterTime: '22:00' },
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toBe(
        "Newsletter time must be from 08:00 to 20:30: no texts during quiet hours (21:00-08:00 in each member's own time)",
      );
    } finally {
      await quiet.close();
    }
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const before = await nextAt(loop.id);
    expect((await put(owner.cookie, loop.id, { frequency: 'daily' })).json().message).toBe('Frequency must be weekly, biweekly or monthly');
    expect((await put(owner.cookie, loop.id, { newsletterDay: 'someday' })).json().message).toBe(
      'Newsletter day must be a weekday name such as "sunday"',
    );
    expect((await put(owner.cookie, loop.id, { newsletterTime: '9am' })).statusCode).toBe(400);
    expect(await nextAt(loop.id)).toEqual(before);
  });

  it('a member may not (403), a stranger finds no Loop (404), staff may', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const stranger = await signUp(t.app);
    const staff = await signUp(t.app, { email: 'staff@example.com' });
    const loop = await createLoopAs(t.app, owner.cookie);
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.account.phoneNumber });
    const byMember = await put(member.cookie, loop.id, { paused: true });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().message).toBe("Only the Loop's creator can do this.");
    const byStranger = await put(stranger.cookie, loop.id, { paused: true });
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json().message).toBe('Loop not found. It may have been deleted, or you are not one of its members.');
    expect((await put(staff.cookie, loop.id, { paused: true, frequency: 'monthly' })).json()).toMatchObject({
      paused: true,
      frequency: 'monthly',
    });
  });

  it("a paused Loop's newsletter is not sent now (409, still a draft), and goes once resumed", async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    await addUpdate(t.testDb.database.db, loop.id, owner.user.id, 'News');
    const draft = await generateAs(t.app, owner.cookie, loop.id);
    await put(owner.cookie, loop.id, { paused: true });
    const send = () => callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`);
    const refused = await send();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This loop is paused, so nobody would get the newsletter. Resume the loop in Settings, then send it.',
    );
    const [row] = await t.testDb.database.db.select({ status: newsletters.status }).from(newsletters).where(eq(newsletters.id, draft.id));
    expect(row?.status).toBe('draft');
    await put(owner.cookie, loop.id, { paused: false });
    expect((await send()).statusCode).toBe(200);
  });
});
