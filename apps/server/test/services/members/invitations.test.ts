import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation, InvitationAnswer } from '@loop/shared/invitations';
import type { LoopDetail, LoopSummary } from '@loop/shared/loops';
import { members, users } from '../../../src/db/schema';
import { DAY_MS } from '../../../src/lib/clock';
import { optInPhone, optOutPhone } from '../../../src/messaging/opt-outs';
import { browser, createTestApp, lastCodeTo, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { addMemberAs, createLoopAs } from '../../helpers/loops';
import { testClock, textsTo } from '../../helpers/messaging';

/**
 * Consent is given to one Loop (decision 0035): proving a phone at sign-up is not a yes to every
 * Loop that phone was added to. The invitations wait on My Loops, where the proven holder accepts
 * or declines each one; nobody else may answer them or learn they exist.
 */
const clock = testClock(new Date('2026-07-06T15:00:00Z'));
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
const get = (url: string, cookie?: string) => t.app.inject({ url, ...(cookie ? { headers: { cookie } } : {}) });
const answer = (membershipId: number, verb: 'accept' | 'decline', cookie?: string) =>
  t.app.inject({ method: 'POST', url: `/api/invitations/${membershipId}/${verb}`, ...(cookie ? { headers: { cookie } } : {}) });
const invitationsOf = async (cookie: string) => {
  const res = await get('/api/invitations', cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Invitation[]>();
};
const myLoops = async (cookie: string) => (await get('/api/loops', cookie)).json<LoopSummary[]>().map((l) => l.name);
const stateIn = async (ownerCookie: string, loopId: number, phone: string) =>
  (await get(`/api/loops/${loopId}`, ownerCookie)).json<LoopDetail>().members.find((m) => m.user.phoneNumber === phone)?.state;

/** Alice and Mallory each add Carol's phone to a Loop called "Smith Family"; then Carol signs up. */
async function twoInvitations() {
  const alice = await signUp(t.app, { firstName: 'Alice', lastName: 'Abbot' });
  const mallory = await signUp(t.app, { firstName: 'Mallory', lastName: 'M' });
  const real = await createLoopAs(t.app, alice.cookie, { name: 'Smith Family' });
  const fake = await createLoopAs(t.app, mallory.cookie, { name: 'Smith Family' });
  const phone = uniquePhone();
  const fromAlice = await addMemberAs(t.app, alice.cookie, real.id, { phoneNumber: phone, firstName: 'Carol' });
  const fromMallory = await addMemberAs(t.app, mallory.cookie, fake.id, { phoneNumber: phone, firstName: 'Carol' });
  const carol = await signUp(t.app, { phoneNumber: phone, firstName: 'Carol', lastName: 'Jones' });
  return { alice, mallory, real, fake, phone, fromAlice, fromMallory, carol };
}

describe('story: signing up proves the phone, not consent', () => {
  it("Carol's sign-up joins neither Loop; she accepts Alice's and declines Mallory's on My Loops, one at a time", async () => {
    const { alice, mallory, real, fake, phone, fromAlice, fromMallory, carol } = await twoInvitations();
    // Signed up and proven, yet in no Loop: Mallory's Loop gets nothing of hers.
    expect(await myLoops(carol.cookie)).toEqual([]);
    expect(await stateIn(alice.cookie, real.id, phone)).toBe('pending');
    expect(await stateIn(mallory.cookie, fake.id, phone)).toBe('pending');
    expect((await get(`/api/loops/${fake.id}`, carol.cookie)).statusCode).toBe(404);

    // Both wait on My Loops, each with who invited her.
    const waiting = await invitationsOf(carol.cookie);
    expect(waiting.map((i) => [i.id, i.loop, i.invitedBy])).toEqual(
      expect.arrayContaining([
        // With each inviter's proven phone's last digits (decision 0053).
        [
          fromAlice.id,
          { id: real.id, name: 'Smith Family' },
          { firstName: 'Alice', lastName: 'Abbot', phoneEnd: expect.stringMatching(/^\d{4}$/) },
        ],
        [
          fromMallory.id,
          { id: fake.id, name: 'Smith Family' },
          { firstName: 'Mallory', lastName: 'M', phoneEnd: expect.stringMatching(/^\d{4}$/) },
        ],
      ]),
    );
    expect(waiting).toHaveLength(2);
    expect(waiting[0]).toMatchObject({
      invitedAt: clock().toISOString(),
      expiresAt: new Date(clock().getTime() + 7 * DAY_MS).toISOString(),
    });

    // Accept confirms that one membership only, and welcomes her to that Loop.
    const accepted = await answer(fromAlice.id, 'accept', carol.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<InvitationAnswer>()).toEqual({ id: fromAlice.id, loop: { id: real.id, name: 'Smith Family' }, status: 'active' });
    expect(await stateIn(alice.cookie, real.id, phone)).toBe('active');
    expect(await stateIn(mallory.cookie, fake.id, phone)).toBe('pending');
    expect(await myLoops(carol.cookie)).toEqual(['Smith Family']);
    const welcome = (await textsTo(db(), phone)).filter((m) => m.kind === 'welcome');
    expect(welcome.map((m) => [m.loopId, m.body.slice(0, 34)])).toEqual([[real.id, 'Welcome to "Smith Family" on Loop!']]);
    // Accepting again answers the same and texts nothing more.
    expect((await answer(fromAlice.id, 'accept', carol.cookie)).json()).toEqual(accepted.json());
    expect((await textsTo(db(), phone)).filter((m) => m.kind === 'welcome')).toHaveLength(1);

    // Decline: Mallory sees it declined and cannot send the invitation again.
    const declined = await answer(fromMallory.id, 'decline', carol.cookie);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<InvitationAnswer>()).toMatchObject({ id: fromMallory.id, status: 'declined' });
    const seen = (await get(`/api/loops/${fake.id}`, mallory.cookie)).json<LoopDetail>().members.find((m) => m.user.phoneNumber === phone);
    expect(seen).toMatchObject({ state: 'declined', resendAt: null });
    clock.advance(2 * DAY_MS);
    const invitationsBefore = (await textsTo(db(), phone)).filter((m) => m.kind === 'invitation').length;
    const resend = await t.app.inject({
      method: 'POST',
      url: `/api/loops/${fake.id}/members/${fromMallory.id}/invitation`,
      headers: { cookie: mallory.cookie },
    });
    expect(resend.statusCode).toBe(409);
    expect(resend.json().message).toBe('This person declined the invitation to this Loop, so Loop sends them no more invitations to it.');
    // Adding the phone again finds the declined membership: still no invitation.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/loops/${fake.id}/members`,
      headers: { cookie: mallory.cookie },
      payload: { firstName: 'Carol', lastName: 'Jones', phoneNumber: phone },
    });
    expect(again.statusCode).toBe(409);
    expect((await textsTo(db(), phone)).filter((m) => m.kind === 'invitation')).toHaveLength(invitationsBefore);
    expect(await stateIn(mallory.cookie, fake.id, phone)).toBe('declined');
    expect(await invitationsOf(carol.cookie)).toEqual([]);
    expect(await myLoops(carol.cookie)).toEqual(['Smith Family']);
    // A declined invitation cannot be accepted after all.
    const late = await answer(fromMallory.id, 'accept', carol.cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/^You declined this invitation/);
  });

  it('a text-only member who claims the phone keeps their pending invitation pending', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Book Club' });
    const phone = uniquePhone();
    const added = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: phone });
    const { user, cookie } = await signUp(t.app, { phoneNumber: phone });
    expect(user.id).toBe(added.userId);
    expect(await stateIn(owner.cookie, loop.id, phone)).toBe('pending');
    expect((await invitationsOf(cookie)).map((i) => i.id)).toEqual([added.id]);
  });
});

describe('only the proven holder of the phone answers, and nobody learns of anyone else’s invitations', () => {
  it("the Loop's owner or any other account gets the same 404 as for an id that does not exist, and changes nothing", async () => {
    const { fromAlice, alice, real, phone, carol } = await twoInvitations();
    const missing = await answer(987654321, 'accept', alice.cookie);
    expect(missing.statusCode).toBe(404);
    for (const cookie of [alice.cookie, (await signUp(t.app)).cookie]) {
      for (const verb of ['accept', 'decline'] as const) {
        const res = await answer(fromAlice.id, verb, cookie);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
      expect(await invitationsOf(cookie)).toEqual([]);
    }
    expect(await stateIn(alice.cookie, real.id, phone)).toBe('pending');
    // Signed out: 401 before anything is looked at.
    expect((await answer(fromAlice.id, 'accept')).statusCode).toBe(401);
    expect((await get('/api/invitations')).statusCode).toBe(401);
    // The holder still can.
    expect((await answer(fromAlice.id, 'accept', carol.cookie)).statusCode).toBe(200);
  });

  it('an account whose phone was never proven by a code sees no invitations and cannot answer them, until a texted code proves it', async () => {
    const { fromAlice, carol, phone } = await twoInvitations();
    // As an account made before phones were proven by codes.
    await db().update(users).set({ phoneProvenAt: null }).where(eq(users.phoneNumber, phone));
    expect(await invitationsOf(carol.cookie)).toEqual([]);
    expect((await answer(fromAlice.id, 'accept', carol.cookie)).statusCode).toBe(404);
    expect((await answer(fromAlice.id, 'decline', carol.cookie)).statusCode).toBe(404);

    // "Forgot password?" texts a code to the phone: entering it proves the phone.
    clock.advance(60_000);
    // (In one browser: the code works only where it was asked for, decision 0027.)
    const tab = browser(t.app);
    const asked = await tab.post('/api/password-reset', { login: phone });
    expect(asked.statusCode).toBe(202);
    const reset = await tab.post('/api/password-reset/confirm', {
      login: phone,
      code: await lastCodeTo(t.app, phone),
      password: 'a brand new passphrase',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const cookie = `loop_session=${reset.cookies.find((c) => c.name === 'loop_session')?.value}`;
    expect(await invitationsOf(cookie)).toHaveLength(2);
  });
});

describe('what Accept and Decline refuse, in words a person can act on', () => {
  it('an expired invitation is not offered and cannot be accepted; it can still be declined', async () => {
    const { fromAlice, fromMallory, carol } = await twoInvitations();
    clock.advance(7 * DAY_MS);
    expect(await invitationsOf(carol.cookie)).toEqual([]);
    const res = await answer(fromAlice.id, 'accept', carol.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This invitation has expired (invitations last 7 days). Ask whoever runs the Loop to send it again.');
    expect((await answer(fromMallory.id, 'decline', carol.cookie)).json()).toMatchObject({ status: 'declined' });
  });

  it('a phone that texted STOP cannot accept on the website: it says to text START first', async () => {
    const { fromAlice, carol, phone, alice, real } = await twoInvitations();
    await optOutPhone(db(), phone, 'STOP', clock());
    const res = await answer(fromAlice.id, 'accept', carol.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^Your phone has opted out of Loop texts/);
    expect(await stateIn(alice.cookie, real.id, phone)).toBe('opted_out');
    await optInPhone(db(), phone);
  });

  it('a Loop already joined cannot be declined', async () => {
    const { fromAlice, carol } = await twoInvitations();
    await answer(fromAlice.id, 'accept', carol.cookie);
    const res = await answer(fromAlice.id, 'decline', carol.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You have already joined this Loop, so there is no invitation to decline.');
  });

  it('a malformed membership id is a readable 400', async () => {
    const { carol } = await twoInvitations();
    const res = await t.app.inject({ method: 'POST', url: '/api/invitations/abc/accept', headers: { cookie: carol.cookie } });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });
});

describe('an invitation that was never sent (the phone had opted out) is not pending forever', () => {
  it('the owner sees "not invited", it is not offered on My Loops, and Accept there does not confirm it, before or after START', async () => {
    const owner = await signUp(t.app, { firstName: 'Bob' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Quiet Loop' });
    const phone = uniquePhone();
    const dave = await signUp(t.app, { phoneNumber: phone, firstName: 'Dave' });
    await optOutPhone(db(), phone, 'STOP', clock());
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner.cookie },
      payload: { firstName: 'Dave', lastName: 'Quiet', phoneNumber: phone },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ state: 'not_invited', resendAt: null });
    expect((await textsTo(db(), phone)).filter((m) => m.kind === 'invitation')).toEqual([]);
    const { id } = added.json<{ id: number }>();
    expect(await stateIn(owner.cookie, loop.id, phone)).toBe('not_invited');
    expect(await invitationsOf(dave.cookie)).toEqual([]);
    expect((await answer(id, 'accept', dave.cookie)).statusCode).toBe(409);

    // START lifts the STOP: still not invited (only a YES to this Loop confirms it), and now the
    // owner may send the invitation.
    await optInPhone(db(), phone);
    const seen = (await get(`/api/loops/${loop.id}`, owner.cookie)).json<LoopDetail>().members.find((m) => m.user.phoneNumber === phone);
    expect(seen).toMatchObject({ state: 'not_invited' });
    expect(seen?.resendAt).not.toBeNull();
    expect(await invitationsOf(dave.cookie)).toEqual([]);
    const res = await answer(id, 'accept', dave.cookie);
    expect(res.statusCode).toBe(409);
    const [row] = await db()
      .select({ status: members.status })
      .from(members)
      .where(and(eq(members.id, id)));
    expect(row?.status).toBe('pending');
  });
});
