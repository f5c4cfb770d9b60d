import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMessage } from '@loop/shared/text';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { consentQuestions, members, messages, phoneOptOuts, updates, users } from '../../../src/db/schema';
import { findRecipients } from '../../../src/messaging/recipients';
import { insertOutbound } from '../../../src/messaging/outbox';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { browser, createTestApp, lastCodeTo, sessionCookie, signUp, uniquePhone, type TestApp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../../helpers/loops';

/** The password every test account signs up with (helpers/app.ts newAccount). */
const PASSWORD = 'correct horse battery';
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A signed-up account and a browser that holds its session (and keeps the code-holder cookies it is given). */
async function signedInTab(app: TestApp, overrides: Record<string, unknown> = {}, remoteAddress?: string) {
  const signed = await signUp(app, overrides, remoteAddress ? { remoteAddress } : {});
  const tab = browser(app, { headers: { cookie: signed.cookie }, ...(remoteAddress ? { remoteAddress } : {}) });
  return { ...signed, tab };
}

/** The path of the newest link e-mailed to an address to confirm it as an account's new one. */
async function changeLink(address: string): Promise<string> {
  const [mail] = await t.app.ctx.db
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.toAddress, address), eq(messages.kind, 'confirm_address')))
    .orderBy(desc(messages.id))
    .limit(1);
  const path = /\/email\/confirm\/[A-Za-z0-9_-]{43}/.exec(mail?.body ?? '')?.[0];
  if (!path) throw new Error(`no link to ${address}`);
  return path;
}

async function logIn(app: TestApp, email: string, password: string, remoteAddress = '127.0.0.1') {
  return app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password } });
}

describe('PUT /api/user: name and email', () => {
  it('changes the first and last name, and the email once its link is followed, checked as sign-up checks them', async () => {
    const { tab, account } = await signedInTab(t.app);
    const res = await tab.put('/api/user', { firstName: ' Grace ', lastName: 'Hopper', email: 'Grace.Hopper@Example.org' });
    expect(res.statusCode).toBe(200);
    // The address is the account's only once confirmed (decision 0054).
    expect(res.json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email: account.email });
    const confirmed = await t.app.inject({ method: 'POST', url: await changeLink('grace.hopper@example.org') });
    expect(confirmed.statusCode).toBe(200);
    expect((await tab.get('/api/user')).json()).toMatchObject({
      firstName: 'Grace',
      email: 'grace.hopper@example.org',
      emailStatus: 'confirmed',
    });

    const phishing = await tab.put('/api/user', { firstName: 'Claim your prize at evil.co' });
    expect(phishing.statusCode).toBe(400);
    expect(phishing.json().message).toBe(linkMessage('First name'));
    const number = await tab.put('/api/user', { lastName: 'Call 415 555 0100' });
    expect(number.statusCode).toBe(400);
    const blank = await tab.put('/api/user', { firstName: '   ' });
    expect(blank.json().message).toBe('First name is required');
    expect((await tab.put('/api/user', { email: 'not-an-email' })).json().message).toBe('Email must be a valid email address');
    expect((await tab.put('/api/user', {})).statusCode).toBe(400);
    expect((await tab.get('/api/user')).json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it("answers the same for another account's email; following its link changes nothing, while one an owner typed for a text-only member gives way", async () => {
    const other = await signUp(t.app);
    const { tab, user, account } = await signedInTab(t.app);
    const taken = await tab.put('/api/user', { email: other.account.email.toUpperCase() });
    const fresh = await tab.put('/api/user', { email: `fresh-${user.id}@example.com` });
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual(fresh.json());
    // A request replaces the one before: the first link no longer works.
    const stale = await t.app.inject({ method: 'POST', url: await changeLink(other.account.email.toLowerCase()) });
    expect(stale.statusCode).toBe(404);
    await tab.put('/api/user', { email: other.account.email });
    const refused = await t.app.inject({ method: 'POST', url: await changeLink(other.account.email.toLowerCase()) });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('This address already has a Loop account');
    expect((await tab.get('/api/user')).json()).toMatchObject({ email: account.email });

    const [textOnly] = await t.app.ctx.db
      .insert(users)
      .values({ email: 'typed-by-owner@example.com', firstName: 'Text', lastName: 'Only', phoneNumber: uniquePhone() })
      .returning();
    const res = await tab.put('/api/user', { email: 'typed-by-owner@example.com' });
    expect(res.json()).toEqual(fresh.json());
    const before = await t.app.ctx.db.select({ email: users.email }).from(users).where(eq(users.id, textOnly!.id));
    expect(before[0]?.email).toBe('typed-by-owner@example.com');
    expect((await t.app.inject({ method: 'POST', url: await changeLink('typed-by-owner@example.com') })).statusCode).toBe(200);
    const [after] = await t.app.ctx.db.select({ email: users.email }).from(users).where(eq(users.id, textOnly!.id));
    expect(after?.email).toBeNull();
    expect((await tab.get('/api/user')).json()).toMatchObject({ id: user.id, email: 'typed-by-owner@example.com' });
  });

  it('is for the signed-in only', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/user', payload: { firstName: 'Eve' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/user/password', () => {
  it('asks the current password, checks the new one as sign-up does, and ends every other session', async () => {
    const { tab, account } = await signedInTab(t.app);
    const elsewhere = sessionCookie(await logIn(t.app, account.email, account.password));
    const other = async () => (await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: elsewhere } })).statusCode;
    expect(await other()).toBe(200);

    const wrong = await tab.post('/api/user/password', { currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^Your current password is not right/);
    const common = await tab.post('/api/user/password', { currentPassword: account.password, newPassword: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/most common passwords/);
    const short = await tab.post('/api/user/password', { currentPassword: account.password, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(await other()).toBe(200);

    const ok = await tab.post('/api/user/password', { currentPassword: account.password, newPassword: 'a brand new passphrase' });
    expect(ok.statusCode).toBe(200);
    expect((await tab.get('/api/user')).statusCode).toBe(200);
    expect(await other()).toBe(401);
    expect((await logIn(t.app, account.email, account.password)).statusCode).toBe(401);
    expect((await logIn(t.app, account.email, 'a brand new passphrase')).statusCode).toBe(200);
  });

  it('counts wrong current passwords as failed log-ins: a stolen session cannot guess faster than the log-in form', async () => {
    const limited = await t.rebuild({ AUTH_RATE_LIMIT_PER_ACCOUNT: '3' });
    {
      const { tab, account } = await signedInTab(limited, {}, '203.0.113.9');
      const guesses = [];
      for (const guess of ['guess one', 'guess two', 'guess three', 'guess four']) {
        guesses.push((await tab.post('/api/user/password', { currentPassword: guess, newPassword: 'a brand new passphrase' })).statusCode);
      }
      expect(guesses).toEqual([400, 400, 400, 429]);
      // The right password is refused too until the window ends, and so is the log-in form from this address.
      const right = await tab.post('/api/user/password', { currentPassword: account.password, newPassword: 'a brand new passphrase' });
      expect(right.statusCode).toBe(429);
      expect((await logIn(limited, account.email, account.password, '203.0.113.9')).statusCode).toBe(429);
    }
  });
});

describe('POST /api/user/phone and /api/user/phone/verify', () => {
  it('moves the account, its Loops, memberships and queued texts to the new number at once', async () => {
    const owner = await signedInTab(t.app);
    const { tab, user, cookie } = await signedInTab(t.app);
    const old = user.phoneNumber;
    const theirs = await createLoopAs(t.app, owner.cookie);
    await addActiveMemberAs(t.app, owner.cookie, theirs.id, { phoneNumber: old });
    const mine = await createLoopAs(t.app, cookie);
    await t.app.ctx.db
      .insert(consentQuestions)
      .values({ phoneNumber: old, membershipIds: [1], askedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) });
    await insertOutbound(t.app.ctx.db, {
      channel: 'sms',
      toAddress: old,
      fromAddress: '',
      kind: 'reminder',
      body: 'What did you do this week?',
      idempotencyKey: `test-reminder:${old}`,
      userId: user.id,
      loopId: theirs.id,
      mediaUrls: [],
    });
    // The old number said STOP: that stays the old number's.
    await optOutPhone(t.app.ctx.db, old, 'STOP', new Date());

    const fresh = uniquePhone();
    const started = await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: fresh });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ phoneNumber: fresh, expiresInSeconds: 600 });
    expect(started.cookies.find((c) => c.name === 'loop_phone_change')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/user/phone',
    });
    const code = await lastCodeTo(t.app, fresh);
    const res = await tab.post('/api/user/phone/verify', { phoneNumber: fresh, code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, phoneNumber: fresh });

    const db = t.app.ctx.db;
    expect(await db.select().from(users).where(eq(users.phoneNumber, old))).toEqual([]);
    // Their membership (and its YES) and their own Loop are the account's, so at the new number.
    const [membership] = await db
      .select()
      .from(members)
      .where(and(eq(members.loopId, theirs.id), eq(members.userId, user.id)));
    expect(membership?.status).toBe('active');
    const recipients = await findRecipients(db, [theirs.id, mine.id]);
    expect(recipients.filter((r) => r.userId === user.id).map((r) => r.phoneNumber)).toEqual([fresh, fresh]);
    const [reminder] = await db
      .select({ toAddress: messages.toAddress })
      .from(messages)
      .where(eq(messages.idempotencyKey, `test-reminder:${old}`));
    expect(reminder?.toAddress).toBe(fresh);
    expect(await db.select().from(consentQuestions).where(eq(consentQuestions.phoneNumber, old))).toEqual([]);
    expect((await db.select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, old))).length).toBe(1);
    expect(await db.select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, fresh))).toEqual([]);
    // Texts from the new number are the account's: one to the Phone Simulator becomes its update in its own Loop.
    const texted = await t.app.inject({
      method: 'POST',
      url: `/api/simulator/phones/${encodeURIComponent(fresh)}/messages`,
      headers: { cookie },
      payload: { body: 'Hello from my new phone' },
    });
    expect(texted.statusCode).toBe(202);
    // The old number is no longer this account's: it cannot be played as theirs.
    const oldPhone = await t.app.inject({
      method: 'POST',
      url: `/api/simulator/phones/${encodeURIComponent(old)}/messages`,
      headers: { cookie },
      payload: { body: 'Hello from my old phone' },
    });
    expect(oldPhone.statusCode).toBe(404);
    await sweepUntilIdle(t.app.ctx);
    const posted = await db.select({ userId: updates.userId, content: updates.content }).from(updates).where(eq(updates.userId, user.id));
    expect(posted).toContainEqual({ userId: user.id, content: 'Hello from my new phone' });
    // The code is used: a replay changes nothing.
    expect((await tab.post('/api/user/phone/verify', { phoneNumber: fresh, code })).statusCode).toBe(400);
  });

  it('texts no code to a number of another account, and answers as for any other number', async () => {
    const other = await signUp(t.app);
    const { tab, user } = await signedInTab(t.app);
    const before = await t.app.ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.toAddress, other.user.phoneNumber));
    const theirs = await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: other.user.phoneNumber });
    const nobody = await browser(t.app, { headers: { cookie: (await signUp(t.app)).cookie } }).post('/api/user/phone', {
      currentPassword: PASSWORD,
      phoneNumber: uniquePhone(),
    });
    expect(theirs.statusCode).toBe(202);
    expect(nobody.statusCode).toBe(202);
    expect(Object.keys(theirs.json()).sort()).toEqual(Object.keys(nobody.json()).sort());
    expect(theirs.cookies.map((c) => c.name)).toEqual(nobody.cookies.map((c) => c.name));
    // The other account's holder is not texted at all (decision 0052).
    const after = await t.app.ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.toAddress, other.user.phoneNumber));
    expect(after).toEqual(before);
    // No code waits, whatever is typed.
    const res = await tab.post('/api/user/phone/verify', { phoneNumber: other.user.phoneNumber, code: '123456' });
    expect(res.statusCode).toBe(400);
    expect((await tab.get('/api/user')).json().phoneNumber).toBe(user.phoneNumber);
    const [still] = await t.app.ctx.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, other.user.phoneNumber));
    expect(still?.id).toBe(other.user.id);
  });

  it('takes the code only in the browser that asked, for the account that asked', async () => {
    const { cookie, tab } = await signedInTab(t.app);
    const fresh = uniquePhone();
    await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: fresh });
    const code = await lastCodeTo(t.app, fresh);
    // The same account signed in in another browser (no code-holder cookie) finds no code.
    const otherBrowser = browser(t.app, { headers: { cookie } });
    const there = await otherBrowser.post('/api/user/phone/verify', { phoneNumber: fresh, code });
    expect(there.statusCode).toBe(400);
    expect(there.json().message).toMatch(/asked for in another browser/);
    // Another account in the browser that asked: the code is not theirs.
    const intruder = await signUp(t.app);
    const holder = tab.cookie('loop_phone_change');
    const swapped = await t.app.inject({
      method: 'POST',
      url: '/api/user/phone/verify',
      headers: { cookie: `${intruder.cookie}; loop_phone_change=${holder}` },
      payload: { phoneNumber: fresh, code },
    });
    expect(swapped.statusCode).toBe(400);
    expect((await tab.post('/api/user/phone/verify', { phoneNumber: fresh, code })).statusCode).toBe(200);
  });

  it('lets one of two verifies at once win', async () => {
    const { tab, user } = await signedInTab(t.app);
    const fresh = uniquePhone();
    await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: fresh });
    const code = await lastCodeTo(t.app, fresh);
    const answers = await Promise.all([1, 2, 3].map(() => tab.post('/api/user/phone/verify', { phoneNumber: fresh, code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    const rows = await t.app.ctx.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, fresh));
    expect(rows).toEqual([{ id: user.id }]);
  });

  it('keeps the number rules and caps: no premium numbers, its own number, a few codes per account, signed out 401', async () => {
    const { tab, user } = await signedInTab(t.app);
    const premium = await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: '+1 900 555 0100' });
    expect(premium.statusCode).toBe(400);
    expect(premium.json().message).toMatch(/^Loop can't text this kind of number/);
    expect((await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: user.phoneNumber })).json().message).toMatch(
      /already your phone number/,
    );
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await tab.post('/api/user/phone', { currentPassword: PASSWORD, phoneNumber: uniquePhone() })).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/user/phone',
      payload: { currentPassword: PASSWORD, phoneNumber: uniquePhone() },
    });
    expect(out.statusCode).toBe(401);
  });

  it('asks for the proof-of-work when sign-up does', async () => {
    const guarded = await t.rebuild({ SIGNUP_PROOF_OF_WORK: 'on' });
    const signed = await signUpWithoutProof(guarded);
    const res = await browser(guarded, { headers: { cookie: signed } }).post('/api/user/phone', {
      currentPassword: PASSWORD,
      phoneNumber: uniquePhone(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/spam|proof|check/i);
  });
});

/** A session for an account made directly (the proof-of-work stands in front of sign-up too). */
async function signUpWithoutProof(app: TestApp): Promise<string> {
  const { hashPassword } = await import('../../../src/lib/passwords');
  const email = `pow-${Math.random().toString(36).slice(2)}@example.com`;
  await app.ctx.db.insert(users).values({
    email,
    passwordHash: await hashPassword('correct horse battery'),
    firstName: 'P',
    lastName: 'W',
    phoneNumber: uniquePhone(),
  });
  return sessionCookie(await logIn(app, email, 'correct horse battery'));
}
