import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, newsletters } from '../../../src/db/schema';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../../helpers/loops';
import { addUpdate, generateAs } from '../../helpers/newsletters';

// Owners (and members) see the Loop's newsletters and what is due next.
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/loops/{id}/newsletters', () => {
  it('lists sent newsletters newest first, never drafts, with the next newsletter and reminder', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { timeZone: 'Europe/London' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber });
    const db = t.testDb.database.db;
    const base = { loopId: loop.id, periodEnd: new Date('2026-03-01T00:00:00Z'), content: '# Hi', writer: 'template' as const };
    await db.insert(newsletters).values([
      { ...base, urlId: 'a'.repeat(22), title: 'Older', status: 'sent', sentAt: new Date('2026-03-01T18:00:00Z') },
      { ...base, urlId: 'b'.repeat(22), title: 'Newer', status: 'sent', sentAt: new Date('2026-03-15T18:00:00Z') },
      { ...base, urlId: 'c'.repeat(22), title: 'Draft', status: 'draft' },
    ]);

    for (const cookie of [owner.cookie, friend.cookie]) {
      const res = await t.app.inject({ url: `/api/loops/${loop.id}/newsletters`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.newsletters.map((n: { title: string }) => n.title)).toEqual(['Newer', 'Older']);
      expect(body.newsletters[0]).toMatchObject({ urlId: 'b'.repeat(22), sentAt: '2026-03-15T18:00:00.000Z', kind: 'newsletter' });
      expect(body).toMatchObject({ paused: false, timeZone: 'Europe/London' });
      expect(Date.parse(body.nextNewsletterAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(body.nextReminderAt)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it('says when staff paused the Loop, with nothing due', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    await t.testDb.database.db.update(loops).set({ paused: true }).where(eq(loops.id, loop.id));
    const body = (await t.app.inject({ url: `/api/loops/${loop.id}/newsletters`, headers: { cookie: owner.cookie } })).json();
    expect(body).toMatchObject({ paused: true, nextNewsletterAt: null, nextReminderAt: null, newsletters: [] });
  });

  it('is 404 for a stranger and 401 signed out', async () => {
    const owner = await signUp(t.app);
    const stranger = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    expect((await t.app.inject({ url: `/api/loops/${loop.id}/newsletters`, headers: { cookie: stranger.cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/loops/${loop.id}/newsletters` })).statusCode).toBe(401);
  });

  it('counts the updates that came in after the draft was written, for the owner only', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.account.phoneNumber });
    const db = t.testDb.database.db;
    await addUpdate(db, loop.id, owner.user.id, 'Before the draft');
    await generateAs(t.app, owner.cookie, loop.id);
    const read = async (cookie: string) =>
      (await t.app.inject({ url: `/api/loops/${loop.id}/newsletters`, headers: { cookie } })).json<{ updatesSinceDraft: number }>();
    expect((await read(owner.cookie)).updatesSinceDraft).toBe(0);
    await addUpdate(db, loop.id, member.user.id, 'After the draft');
    expect((await read(owner.cookie)).updatesSinceDraft).toBe(1);
    expect((await read(member.cookie)).updatesSinceDraft).toBe(0);
  });
});
