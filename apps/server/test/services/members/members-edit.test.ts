import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs } from '../../helpers/loops';

// The owner edits a member (name, context, messaging preference).
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (cookie: string, loopId: number, memberId: number, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/loops/${loopId}/members/${memberId}`, headers: { cookie }, payload: payload as object });

async function memberOf(cookie: string, loopId: number, memberId: number) {
  const detail = (await t.app.inject({ url: `/api/loops/${loopId}`, headers: { cookie } })).json<{ members: { id: number }[] }>();
  return detail.members.find((m) => m.id === memberId);
}

describe('PUT /api/loops/{id}/members/{memberId}', () => {
  it('changes a text-only member’s name, context and messaging preference', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: uniquePhone(), firstName: 'Nana' });
    expect(await memberOf(owner.cookie, loop.id, member.id)).toMatchObject({ detailsEditable: true });

    const res = await put(owner.cookie, loop.id, member.id, {
      firstName: ' Margaret ',
      lastName: 'Walker',
      context: 'Grandma',
      messagingPreference: 'whatsapp',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: member.id,
      context: 'Grandma',
      detailsEditable: true,
      user: { firstName: 'Margaret', lastName: 'Walker', messagingPreference: 'whatsapp' },
    });
    expect(await memberOf(owner.cookie, loop.id, member.id)).toMatchObject({
      context: 'Grandma',
      user: { firstName: 'Margaret', messagingPreference: 'whatsapp' },
    });

    // An empty context clears it.
    expect((await put(owner.cookie, loop.id, member.id, { context: '' })).json()).toMatchObject({ context: null });
  });

  it('changes only the context of a member who has an account and said yes, and says why', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app, { firstName: 'Real' });
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber });
    expect(await memberOf(owner.cookie, loop.id, member.id)).toMatchObject({ detailsEditable: false });

    const rename = await put(owner.cookie, loop.id, member.id, { firstName: 'Fake', context: 'Cousin' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(
      'Real has an account and manages their own name and messaging preference. You can change their context here.',
    );
    // Nothing was half-written.
    expect(await memberOf(owner.cookie, loop.id, member.id)).toMatchObject({ context: null, user: { firstName: 'Real' } });

    // The same name as now is no change: the edit form sends every field.
    const context = await put(owner.cookie, loop.id, member.id, {
      firstName: 'Real',
      lastName: 'Lovelace',
      messagingPreference: 'sms',
      context: 'Cousin',
    });
    expect(context.statusCode).toBe(200);
    expect(context.json()).toMatchObject({ context: 'Cousin', user: { firstName: 'Real' } });
  });

  it('changes only its own Loop’s name for a text-only person who is in another Loop too (decision 0031)', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const phoneNumber = uniquePhone();
    const loop = await createLoopAs(t.app, owner.cookie);
    const otherLoop = await createLoopAs(t.app, other.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber, firstName: 'Pat' });
    const theirs = await addMemberAs(t.app, other.cookie, otherLoop.id, { phoneNumber, firstName: 'Patricia' });
    // The same answer as for anyone: whether they are in another Loop is not the owner's to learn.
    expect(await memberOf(owner.cookie, loop.id, member.id)).toMatchObject({ detailsEditable: true });
    const res = await put(owner.cookie, loop.id, member.id, { firstName: 'Patty', messagingPreference: 'whatsapp' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { firstName: 'Patty', messagingPreference: 'whatsapp' } });
    expect(await memberOf(other.cookie, otherLoop.id, theirs.id)).toMatchObject({
      user: { firstName: 'Patricia', messagingPreference: 'sms' },
    });
  });

  it('is for the owner and staff only, and 404s for strangers and other Loops’ members', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app);
    const stranger = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const otherLoop = await createLoopAs(t.app, stranger.cookie);
    // Active (the friend said YES): a member who may see the Loop, but not manage it.
    const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: friend.account.phoneNumber });
    const outsider = await addMemberAs(t.app, stranger.cookie, otherLoop.id, { phoneNumber: uniquePhone() });

    expect((await put(friend.cookie, loop.id, member.id, { context: 'Me' })).statusCode).toBe(403);
    expect((await put(stranger.cookie, loop.id, member.id, { context: 'X' })).statusCode).toBe(404);
    // A member of another Loop is not found through this Loop.
    expect((await put(owner.cookie, loop.id, outsider.id, { context: 'X' })).statusCode).toBe(404);
    const signedOut = await t.app.inject({ method: 'PUT', url: `/api/loops/${loop.id}/members/${member.id}`, payload: { context: 'X' } });
    expect(signedOut.statusCode).toBe(401);
  });

  it.each([
    ['nothing', {}, 'Send at least one of firstName, lastName, messagingPreference, phoneNumber, context, timeZone or organizer'],
    ['an empty first name', { firstName: '' }, 'First name is required'],
    ['a long last name', { lastName: 'x'.repeat(101) }, 'Last name must be at most 100 characters'],
    ['an unknown preference', { messagingPreference: 'pigeon' }, undefined],
    ['a long context', { context: 'x'.repeat(5001) }, undefined],
  ])('refuses %s with a 400 a person can read', async (_label, payload, message) => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: uniquePhone() });
    const res = await put(owner.cookie, loop.id, member.id, payload);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
    else expect(res.json().message).toEqual(expect.any(String));
  });
});
