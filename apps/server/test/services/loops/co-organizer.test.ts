import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { messages, newsletters } from '../../../src/db/schema';
import { textOwnerAboutDraft } from '../../../src/services/newsletters/text-owner-about-draft';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs } from '../../helpers/loops';

/**
 * Decision 0059: the owner makes a member who said yes and has an account a co-organizer, with the
 * owner's rights but deleting the Loop, appointing organizers and handing it over; the owner hands
 * the Loop over; organizers get the owner's texts about a draft. (Every route's answer for an
 * organizer is in test/routes/loop-permissions.test.ts.)
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const db = () => t.testDb.database.db;

async function setUp() {
  const owner = await signUp(t.app, { firstName: 'Olga' });
  const friend = await signUp(t.app, { firstName: 'Fran' });
  const loop = await createLoopAs(t.app, owner.cookie, { name: 'Co-run' });
  const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber });
  const call = (cookie: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `/api/loops/${loop.id}${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  return { owner, friend, loop, member, call };
}

describe('a co-organizer', () => {
  it('is made by the owner, shows as organizer in the member list, manages the Loop, and cannot delete it', async () => {
    const { owner, friend, member, call } = await setUp();
    const made = await call(owner.cookie, 'PUT', `/members/${member.id}`, { organizer: true });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({ organizer: true });
    const seen = await call(friend.cookie, 'GET', '');
    expect(seen.json<LoopDetail>().role).toBe('organizer');
    expect(seen.json<LoopDetail>().members.map((m) => [m.user.firstName, m.organizer])).toEqual([
      ['Olga', false],
      ['Fran', true],
    ]);
    expect((await call(friend.cookie, 'PUT', '', { paused: true })).statusCode).toBe(200);
    const del = await call(friend.cookie, 'DELETE', '');
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe("Only the Loop's owner can do this. Organizers can do everything else.");
  });

  it('is someone who said yes and has an account: not a pending invitee, not the owner', async () => {
    const { owner, loop, call } = await setUp();
    const pending = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550777', firstName: 'Pat' });
    const refused = await call(owner.cookie, 'PUT', `/members/${pending.id}`, { organizer: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Pat can be made an organizer once they have said yes to this Loop and have an account to sign in with.',
    );
    const textOnly = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550778', firstName: 'Tex' });
    expect((await call(owner.cookie, 'PUT', `/members/${textOnly.id}`, { organizer: true })).statusCode).toBe(409);
    const detail = (await call(owner.cookie, 'GET', '')).json<LoopDetail>();
    const self = detail.members.find((m) => m.isCreator);
    const own = await call(owner.cookie, 'PUT', `/members/${self?.id}`, { organizer: true });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe("The Loop's owner runs it already: they are not made an organizer.");
  });

  it('gets the owner’s 24-hour preview text about a scheduled draft, once', async () => {
    const { owner, friend, loop, member, call } = await setUp();
    await call(owner.cookie, 'PUT', `/members/${member.id}`, { organizer: true });
    const [draft] = await db()
      .insert(newsletters)
      .values({
        loopId: loop.id,
        urlId: `co-${loop.id}`,
        title: 'Draft',
        content: '# Draft',
        periodEnd: new Date(),
        sendAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    if (!draft) throw new Error('no draft');
    const input = { newsletter: draft, step: 'preview' as const, now: new Date(), publicUrl: 'http://127.0.0.1:3000' };
    await db().transaction((tx) => textOwnerAboutDraft(tx, input));
    await db().transaction((tx) => textOwnerAboutDraft(tx, input));
    const texts = await db().select().from(messages).where(eq(messages.newsletterId, draft.id)).orderBy(messages.id);
    expect(texts.map((m) => m.toAddress).sort()).toEqual([owner.account.phoneNumber, friend.account.phoneNumber].sort());
    for (const text of texts)
      expect(text.body).toMatch(/newsletter goes out tomorrow at .*: look at it here http:\/\/127\.0\.0\.1:3000\/loops\//);
  });
});

describe('handing the Loop over', () => {
  it('makes the member the owner and keeps the owner before as an organizer; only the owner may', async () => {
    const { owner, friend, member, call } = await setUp();
    const byMember = await call(friend.cookie, 'PUT', '/owner', { memberId: member.id });
    expect(byMember.statusCode).toBe(403);
    const handed = await call(owner.cookie, 'PUT', '/owner', { memberId: member.id });
    expect(handed.statusCode).toBe(200);
    expect(handed.json()).toMatchObject({ creatorId: friend.user.id, creator: { firstName: 'Fran' } });
    const asFormer = (await call(owner.cookie, 'GET', '')).json<LoopDetail>();
    expect(asFormer.role).toBe('organizer');
    expect(asFormer.members.map((m) => [m.user.firstName, m.isCreator, m.organizer])).toEqual([
      ['Olga', false, true],
      ['Fran', true, false],
    ]);
    // The former owner, now an organizer, may not delete it or hand it back.
    expect((await call(owner.cookie, 'DELETE', '')).statusCode).toBe(403);
    expect((await call(friend.cookie, 'GET', '')).json<LoopDetail>().role).toBe('owner');
  });

  it('refuses a pending invitee and the owner themselves', async () => {
    const { owner, loop, call } = await setUp();
    const pending = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550779' });
    const refused = await call(owner.cookie, 'PUT', '/owner', { memberId: pending.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The Loop can be handed only to a member who said yes to it and has an account to sign in with.');
    const self = (await call(owner.cookie, 'GET', '')).json<LoopDetail>().members.find((m) => m.isCreator);
    expect((await call(owner.cookie, 'PUT', '/owner', { memberId: self?.id })).statusCode).toBe(400);
    expect((await call(owner.cookie, 'PUT', '/owner', { memberId: 'x' })).json().message).toBe(
      'memberId must be the id of the member who takes the Loop over',
    );
  });
});
