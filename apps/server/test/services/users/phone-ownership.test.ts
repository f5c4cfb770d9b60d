import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { members, phoneCodes, users } from '../../../src/db/schema';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { CODE_GONE } from '../../../src/services/phone-codes/check-phone-code';
import { PHONE_CODE } from '../../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, lastCodeTo, newAccount, sessionCookie, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { createLoopAs, insertUpdate } from '../../helpers/loops';
import { testClock } from '../../helpers/messaging';
import { NO_CODE_TO_RESEND } from '../../../src/services/phone-codes/code-sent-answer';

/**
 * Decision 0013: a phone number acts on an account only once its holder proved it with a texted code.
 * Codes are read where the holder reads them: the text queued to their phone (lastCodeTo), or the
 * simulated text the sign-up card shows.
 */
const clock = testClock(new Date('2026-06-01T09:00:00Z'));
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
/** The browser most steps of a test run in (a fresh one per test); codes work only in the browser that asked. */
let tab: ReturnType<typeof browser>;
beforeEach(() => {
  tab = browser(t.app);
});
const post = (url: string, payload: unknown, cookie?: string) =>
  cookie ? t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { cookie } }) : tab.post(url, payload);
const verify = (phoneNumber: string, code: string, inBrowser = tab) => inBrowser.post('/api/register/verify', { phoneNumber, code });
const userCount = async () => (await db().select({ n: count() }).from(users))[0]?.n ?? 0;
/** A code that is not the one texted (the last digit changed). */
const wrongCode = (code: string) => code.slice(0, 5) + String((Number(code[5]) + 1) % 10);
/** Past the resend wait, so the next code for the same phone may go. */
const afterResendWait = () => clock.advance(PHONE_CODE.resendAfterMs);

/** The person a member row is: an owner's answer names none while the invitation is pending (decision 0031). */
async function userIdOf(memberId: number): Promise<number> {
  const [row] = await t.testDb.database.db.select({ userId: members.userId }).from(members).where(eq(members.id, memberId));
  if (!row) throw new Error('no such member');
  return row.userId;
}

describe('the squatter story (decision 0013), end to end through the API', () => {
  it('a squatter cannot complete sign-up for a phone they do not hold; the real holder can and keeps what an owner gave them', async () => {
    const holderPhone = uniquePhone();
    // 1. The squatter types the holder's phone into the sign-up form.
    const squatter = newAccount({ phoneNumber: holderPhone, email: 'squatter@example.com', firstName: 'Mallory' });
    const started = await post('/api/register', squatter);
    expect(started.statusCode).toBe(202);
    // The code holder's secret, and the phone this browser's sign-up is for (so a reload keeps the code step).
    expect(started.cookies.map((c) => c.name).sort()).toEqual(['loop_sign_up', 'loop_sign_up_phone']);
    // The code went to the holder's phone, not to the squatter: guessing fails, and stops after 5 tries.
    const texted = await lastCodeTo(t.app, holderPhone);
    const answers: number[] = [];
    for (let i = 0; i < PHONE_CODE.maxTries + 1; i++) answers.push((await verify(holderPhone, wrongCode(texted))).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    // Even the right code is refused now: this code had its tries.
    const spent = await verify(holderPhone, texted);
    expect(spent.statusCode).toBe(429);
    expect(spent.json().message).toBe('Too many wrong codes. Ask for a new code.');
    expect(await db().select().from(users).where(eq(users.phoneNumber, holderPhone))).toEqual([]);
    const squatterLogin = await post('/api/login', { email: squatter.email, password: squatter.password });
    expect(squatterLogin.statusCode).toBe(401);

    // 2. An owner adds the holder by phone, typing an email for them.
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'The Holders' });
    const added = await post(
      `/api/loops/${loop.id}/members`,
      { firstName: 'Hal', lastName: 'Holder', phoneNumber: holderPhone, email: 'hal@owner-typed.example' },
      owner.cookie,
    );
    expect(added.statusCode).toBe(201);
    const memberUserId = await userIdOf(added.json<{ id: number }>().id);
    // The squatter's form is not what the owner's member became: nobody can sign in as it.
    expect((await post('/api/login', { email: squatter.email, password: squatter.password })).statusCode).toBe(401);

    // 3. The real holder signs up in their own browser, with their own email, and proves the phone
    // (the squatter's code had its tries, so it no longer holds the phone).
    afterResendWait();
    const holderTab = browser(t.app);
    const holder = newAccount({ phoneNumber: holderPhone, email: 'hal@real.example', firstName: 'Hal', lastName: 'Real' });
    expect((await holderTab.post('/api/register', holder)).statusCode).toBe(202);
    const res = await verify(holderPhone, await lastCodeTo(t.app, holderPhone), holderTab);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: memberUserId,
      email: 'hal@real.example',
      firstName: 'Hal',
      lastName: 'Real',
      phoneNumber: holderPhone,
    });
    // Same person, same membership, still waiting for their answer (proving the phone is not a yes,
    // decision 0035): they accept it on My Loops, and the Loop is theirs to open.
    const cookie = sessionCookie(res);
    expect((await t.app.inject({ url: '/api/loops', headers: { cookie } })).json()).toEqual([]);
    const [invitation] = (await t.app.inject({ url: '/api/invitations', headers: { cookie } })).json<{ id: number }[]>();
    expect((await post(`/api/invitations/${invitation?.id}/accept`, undefined, cookie)).statusCode).toBe(200);
    const mine = await t.app.inject({ url: '/api/loops', headers: { cookie } });
    expect(mine.json<{ id: number }[]>().map((l) => l.id)).toEqual([loop.id]);
    expect((await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie } })).statusCode).toBe(200);
    // And the squatter still has nothing.
    expect((await post('/api/login', { email: squatter.email, password: squatter.password })).statusCode).toBe(401);
  });
});

describe('claiming a text-only member', () => {
  it('a member added by an owner signs up: same person, same updates, the name and email typed now', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Book Club' });
    const phoneNumber = uniquePhone();
    const added = await post(`/api/loops/${loop.id}/members`, { firstName: 'Typed', lastName: 'ByOwner', phoneNumber }, owner.cookie);
    const userId = await userIdOf(added.json<{ id: number }>().id);
    await insertUpdate(db(), loop.id, userId, 'Finished chapter 3!');

    const { user, cookie } = await signUp(t.app, { phoneNumber, firstName: 'Jo', lastName: 'March', email: 'jo@example.com' });
    expect(user.id).toBe(userId);
    // The invitation waits for Jo's own yes (decision 0035).
    expect((await post(`/api/invitations/${added.json<{ id: number }>().id}/accept`, undefined, cookie)).statusCode).toBe(200);
    const detail = await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie } });
    expect(detail.statusCode).toBe(200);
    const updates = detail.json<{ updates: { content: string; user: { firstName: string } }[] }>().updates;
    expect(updates).toEqual([
      expect.objectContaining({ content: 'Finished chapter 3!', user: expect.objectContaining({ firstName: 'Jo' }) }),
    ]);
    // One person, not two.
    expect(await db().select({ n: count() }).from(users).where(eq(users.phoneNumber, phoneNumber))).toEqual([{ n: 1 }]);
  });

  it('a member who joined by invite signs up without a 409', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const invite = (await post(`/api/loops/${loop.id}/invite`, undefined, owner.cookie)).json<{ code: string }>();
    const phoneNumber = uniquePhone();
    const joined = await post(`/api/invites/${invite.code}/join`, {
      firstName: 'Amy',
      lastName: 'March',
      phoneNumber,
      email: 'amy@example.com',
    });
    expect(joined.statusCode).toBe(200);
    // The email the join form carried is theirs to keep or change.
    const { user } = await signUp(t.app, { phoneNumber, email: 'amy@example.com' });
    expect(user).toMatchObject({ phoneNumber, email: 'amy@example.com' });
  });

  it('an email an owner typed for a member blocks nobody: another person signs up with it', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const memberPhone = uniquePhone();
    const added = await post(
      `/api/loops/${loop.id}/members`,
      { firstName: 'Beth', lastName: 'March', phoneNumber: memberPhone, email: 'Beth@Example.com' },
      owner.cookie,
    );
    expect(added.statusCode).toBe(201);
    const userId = await userIdOf(added.json<{ id: number }>().id);

    const { user } = await signUp(t.app, { email: 'beth@example.com' });
    expect(user.email).toBe('beth@example.com');
    // The member keeps their membership; the unproven email is gone from them.
    const [member] = await db().select().from(users).where(eq(users.id, userId));
    expect(member).toMatchObject({ phoneNumber: memberPhone, email: null, passwordHash: null });
  });
});

describe('bad codes change nothing', () => {
  it('answers a wrong, expired or spent code, a code for another phone or purpose, and a malformed phone or code with a 4xx', async () => {
    const account = newAccount();
    const other = newAccount();
    const otherTab = browser(t.app);
    await post('/api/register', account);
    await otherTab.post('/api/register', other);
    const code = await lastCodeTo(t.app, account.phoneNumber);
    const otherCode = await lastCodeTo(t.app, other.phoneNumber);
    const before = await userCount();

    const cases: [string, string, string, number, string][] = [
      ['wrong', account.phoneNumber, wrongCode(code), 400, 'That code is not right. Check the text and try again.'],
      [
        'for another phone',
        account.phoneNumber,
        otherCode === code ? wrongCode(code) : otherCode,
        400,
        'That code is not right. Check the text and try again.',
      ],
      ['malformed code', account.phoneNumber, '12ab56', 400, 'The code is the 6 digits in the text'],
      ['malformed phone', '12345', code, 400, 'Phone number must be a valid international number, like +1 415 555 0100'],
      ['for a phone with no code', uniquePhone(), code, 400, CODE_GONE],
    ];
    for (const [name, phoneNumber, typed, status, message] of cases) {
      const res = await verify(phoneNumber, typed);
      expect({ name, status: res.statusCode, message: res.json().message }).toEqual({ name, status, message });
    }
    expect(await userCount()).toBe(before);

    // The right code, with spaces as people type them, works once; replayed it is spent.
    const ok = await verify(account.phoneNumber, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(ok.statusCode).toBe(201);
    const replay = await verify(account.phoneNumber, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(CODE_GONE);

    // Ten minutes later the other phone's code has expired.
    clock.advance(PHONE_CODE.validMs);
    const late = await verify(other.phoneNumber, otherCode, otherTab);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(CODE_GONE);
    expect(await userCount()).toBe(before + 1);
  });

  it('a password-reset code does not sign anyone up, nor a sign-up code reset a password', async () => {
    const { account } = await signUp(t.app);
    afterResendWait();
    await post('/api/password-reset', { login: account.email });
    const resetCode = await lastCodeTo(t.app, account.phoneNumber);
    const asSignUp = await verify(account.phoneNumber, resetCode);
    expect(asSignUp.statusCode).toBe(400);

    const fresh = newAccount();
    await post('/api/register', fresh);
    const signUpCode = await lastCodeTo(t.app, fresh.phoneNumber);
    // (In the browser that holds both codes, so only the purpose is wrong.)
    const asReset = await post('/api/password-reset/confirm', {
      login: fresh.phoneNumber,
      code: signUpCode,
      password: 'a brand new passphrase',
    });
    expect(asReset.statusCode).toBe(400);
  });

  it('resends with a visible wait, and a new code replaces the old one', async () => {
    const account = newAccount();
    await post('/api/register', account);
    const first = await lastCodeTo(t.app, account.phoneNumber);
    const tooSoon = await post('/api/register/resend', { phoneNumber: account.phoneNumber });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe('A code was just sent. Please wait 30 seconds before asking for another.');
    afterResendWait();
    const resent = await post('/api/register/resend', { phoneNumber: account.phoneNumber });
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toMatchObject({ phoneNumber: account.phoneNumber, resendAfterSeconds: 30 });
    const second = await lastCodeTo(t.app, account.phoneNumber);
    if (second !== first) expect((await verify(account.phoneNumber, first)).statusCode).toBe(400);
    // The resent code completes the form sent first.
    const res = await verify(account.phoneNumber, second);
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe(account.email);

    // With nothing waiting, the answer says no code was sent (decision 0060), and nothing is texted.
    const nobody = uniquePhone();
    const nothingWaiting = await post('/api/register/resend', { phoneNumber: nobody });
    expect([nothingWaiting.statusCode, nothingWaiting.json().message]).toEqual([400, NO_CODE_TO_RESEND]);
    await expect(lastCodeTo(t.app, nobody)).rejects.toThrow(/no code was texted/);
  });

  it('texts one phone at most 5 codes an hour, however often its browser asks', async () => {
    const phoneNumber = uniquePhone();
    const codes: number[] = [];
    for (let i = 0; i < PHONE_CODE.perPhone + 1; i++) {
      codes.push((await post('/api/register', newAccount({ phoneNumber }))).statusCode);
      afterResendWait();
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
    clock.advance(PHONE_CODE.windowMs);
    expect((await post('/api/register', newAccount({ phoneNumber }))).statusCode).toBe(202);
  });

  it('keeps only a keyed hash of each code', async () => {
    const account = newAccount();
    await post('/api/register', account);
    const code = await lastCodeTo(t.app, account.phoneNumber);
    const rows = await db().select().from(phoneCodes).where(eq(phoneCodes.phoneNumber, account.phoneNumber));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(account.password);
  });
});

describe('a phone that replied STOP', () => {
  it('gets no code text, and the answer is the same as for any phone', async () => {
    const stopped = uniquePhone();
    await optOutPhone(db(), stopped, 'STOP', clock());
    const answer = await post('/api/register', newAccount({ phoneNumber: stopped }));
    const normal = await post('/api/register', newAccount());
    expect(answer.statusCode).toBe(202);
    expect(Object.keys(answer.json()).sort()).toEqual(Object.keys(normal.json()).sort());
    await expect(lastCodeTo(t.app, stopped)).rejects.toThrow(/no code was texted/);
  });
});

describe('Forgot password (through the Phone Simulator)', () => {
  it('texts a code, sets a new password, and ends every other session', async () => {
    const { account, cookie: first } = await signUp(t.app);
    const second = sessionCookie(await post('/api/login', { email: account.email, password: account.password }));
    afterResendWait();

    const asked = await post('/api/password-reset', { login: account.email.toUpperCase() });
    expect(asked.statusCode).toBe(202);
    // The simulator's text, as the Forgot password card shows it.
    const { simulatedText } = asked.json<{ simulatedText: string }>();
    expect(simulatedText).toMatch(/^Loop: \d{6} is your code to set a new Loop password\./);
    const code = /\d{6}/.exec(simulatedText)?.[0] ?? '';

    const weak = await post('/api/password-reset/confirm', { login: account.email, code, password: 'password123' });
    expect(weak.statusCode).toBe(400);
    const done = await post('/api/password-reset/confirm', { login: account.email, code, password: 'a brand new passphrase' });
    expect(done.statusCode).toBe(200);
    // This browser is signed in; every other session ended.
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: sessionCookie(done) } })).statusCode).toBe(200);
    for (const old of [first, second]) expect((await t.app.inject({ url: '/api/user', headers: { cookie: old } })).statusCode).toBe(401);
    expect((await post('/api/login', { email: account.email, password: account.password })).statusCode).toBe(401);
    expect((await post('/api/login', { email: account.email, password: 'a brand new passphrase' })).statusCode).toBe(200);

    // A replayed reset changes nothing.
    const replay = await post('/api/password-reset/confirm', { login: account.email, code, password: 'another new passphrase' });
    expect(replay.statusCode).toBe(400);
    expect((await post('/api/login', { email: account.email, password: 'a brand new passphrase' })).statusCode).toBe(200);
  });

  it('works with the phone number too, and refuses a bad login field with a readable 400', async () => {
    const { account } = await signUp(t.app);
    afterResendWait();
    const asked = await post('/api/password-reset', { login: account.phoneNumber.replace('+1', '') });
    const code = /\d{6}/.exec(asked.json<{ simulatedText: string }>().simulatedText)?.[0] ?? '';
    expect(
      (await post('/api/password-reset/confirm', { login: account.phoneNumber, code, password: 'a brand new passphrase' })).statusCode,
    ).toBe(200);

    const bad = await post('/api/password-reset', { login: 'not a phone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Phone number must be a valid international number, like +1 415 555 0100');
  });

  it('answers alike whether or not an account exists, and texts nobody for a text-only member', async () => {
    const { account } = await signUp(t.app);
    afterResendWait();
    const memberPhone = uniquePhone();
    await db().insert(users).values({ firstName: 'Text', lastName: 'Only', phoneNumber: memberPhone, email: 'textonly@example.com' });
    const shape = (res: Awaited<ReturnType<typeof post>>) => ({
      status: res.statusCode,
      message: res.json().message,
      resend: res.json().resendAfterSeconds,
    });
    const known = shape(await post('/api/password-reset', { login: account.email }));
    for (const login of ['nobody@example.com', uniquePhone(), memberPhone, 'textonly@example.com']) {
      expect(shape(await post('/api/password-reset', { login }))).toEqual(known);
    }
    await expect(lastCodeTo(t.app, memberPhone)).rejects.toThrow(/no code was texted/);
    // A code for an account that does not exist is refused like a wrong one.
    const unknown = await post('/api/password-reset/confirm', {
      login: 'nobody@example.com',
      code: '123456',
      password: 'a brand new passphrase',
    });
    const wrong = await post('/api/password-reset/confirm', {
      login: account.email,
      code: wrongCode(await lastCodeTo(t.app, account.phoneNumber)),
      password: 'a brand new passphrase',
    });
    expect([unknown.statusCode, unknown.json()]).toEqual([wrong.statusCode, wrong.json()]);
  });
});

describe('staff are granted, never claimed', () => {
  it('registering an address makes nobody staff, and signing in neither', async () => {
    const { account, user } = await signUp(t.app, { email: 'boss@corp.example' });
    expect(user.isPrivileged).toBe(false);
    const login = await post('/api/login', { email: account.email.toUpperCase(), password: account.password });
    expect(login.json().isPrivileged).toBe(false);
    expect((await t.app.inject({ url: '/api/admin/stats', headers: { cookie: sessionCookie(login) } })).statusCode).toBe(403);
  });
});

describe('Add Member looks nothing up (decision 0031)', () => {
  it('answers a known phone and a known email exactly as new ones, with the name and email the owner typed', async () => {
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie);
    const known = await signUp(t.app, { firstName: 'Secret', lastName: 'Name', email: 'secret@example.com' });
    const add = (payload: Record<string, unknown>) => post(`/api/loops/${loop.id}/members`, payload, owner.cookie);

    const typed = { firstName: 'Typed', lastName: 'Name', email: 'typed@example.com' };
    const byKnownPhone = await add({ ...typed, phoneNumber: known.account.phoneNumber });
    const byKnownEmail = await add({ ...typed, email: 'secret@example.com', phoneNumber: uniquePhone() });
    const fresh = await add({ ...typed, email: 'fresh@example.com', phoneNumber: uniquePhone() });
    for (const [res, email] of [
      [byKnownPhone, 'typed@example.com'],
      [byKnownEmail, 'secret@example.com'],
      [fresh, 'fresh@example.com'],
    ] as const) {
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ firstName: 'Typed', lastName: 'Name', email });
      expect(res.body).not.toContain('Secret');
    }
    // The account keeps its own name and email; nobody else's email was stored on the new member.
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: known.cookie } })).json()).toMatchObject({
      firstName: 'Secret',
      email: 'secret@example.com',
    });
  });
});
