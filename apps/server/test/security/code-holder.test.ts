import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, phoneCodes, users } from '../../src/db/schema';
import { optOutPhone } from '../../src/messaging/opt-outs';
import { CODE_GONE } from '../../src/services/phone-codes/check-phone-code';
import { NO_CODE_TO_RESEND } from '../../src/services/phone-codes/code-sent-answer';
import { PHONE_CODE } from '../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, lastCodeTo, newAccount, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { testClock } from '../helpers/messaging';

/**
 * A texted code belongs to the browser that asked for it (decision 0027). Played as the attack was
 * found: with Twilio (so no answer carries a simulated text), the victim's phone in ADMIN_PHONES,
 * the victim's browser and Mallory's, each with its own cookies.
 */
const VICTIM_PHONE = '+14155550123';
const clock = testClock(new Date('2026-07-01T09:00:00Z'));
let t: TestContext;
let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake, { ADMIN_PHONES: VICTIM_PHONE }), { clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.testDb.database.db;
const accountsWithEmail = async (email: string) => (await db().select({ n: count() }).from(users).where(eq(users.email, email)))[0]?.n ?? 0;
const codesTextedTo = async (phoneNumber: string) =>
  (await db().select({ n: count() }).from(messages).where(eq(messages.toAddress, phoneNumber)))[0]?.n ?? 0;
/** What a stranger sees of an answer: status, body, and which cookies it sets (their values are random). */
const seen = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  body: res.json<Record<string, unknown>>(),
  cookies: res.cookies.map((c) => `${c.name} ${c.path} ${c.httpOnly} ${c.sameSite} ${c.maxAge}`),
});

describe('a sign-up belongs to the browser that started it', () => {
  it("a later form for the same phone never replaces the waiting one: the victim's code creates the victim's account", async () => {
    const victim = browser(t.app, { remoteAddress: '10.60.0.1' });
    const mallory = browser(t.app, { remoteAddress: '10.60.0.2' });
    const victimForm = newAccount({ phoneNumber: VICTIM_PHONE, email: 'victim@example.com', firstName: 'Vic' });
    expect((await victim.post('/api/register', victimForm)).statusCode).toBe(202);
    const victimCode = await lastCodeTo(t.app, VICTIM_PHONE);

    // 31 seconds later Mallory registers the same phone with her own email and password: her
    // browser gets a code of its own, texted to the victim's phone (decision 0060).
    clock.advance(PHONE_CODE.resendAfterMs + 1000);
    const malloryForm = newAccount({ phoneNumber: VICTIM_PHONE, email: 'mallory@example.com', firstName: 'Mallory' });
    const hers = await mallory.post('/api/register', malloryForm);
    expect(hers.statusCode).toBe(202);
    expect(await codesTextedTo(VICTIM_PHONE)).toBe(2);
    const malloryCode = await lastCodeTo(t.app, VICTIM_PHONE);

    // The victim types the newest code texted to their phone, in their browser: it is Mallory's,
    // so it is not right there, and it creates nobody's account.
    const wrong = await victim.post('/api/register/verify', { phoneNumber: VICTIM_PHONE, code: malloryCode });
    expect(wrong.statusCode).toBe(400);
    expect(await accountsWithEmail('mallory@example.com')).toBe(0);
    // Their own code still creates their own account.
    const done = await victim.post('/api/register/verify', { phoneNumber: VICTIM_PHONE, code: victimCode });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ email: 'victim@example.com', firstName: 'Vic', isPrivileged: true });
    expect(await accountsWithEmail('mallory@example.com')).toBe(0);
    const asMallory = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'mallory@example.com', password: malloryForm.password },
    });
    expect(asMallory.statusCode).toBe(401);
  });

  it("a stranger's waiting sign-up neither blocks the holder's nor gets a 202 for a code that did not go", async () => {
    const phoneNumber = uniquePhone();
    const stranger = browser(t.app, { remoteAddress: '10.60.0.3' });
    expect((await stranger.post('/api/register', newAccount({ phoneNumber, email: 'stranger-first@example.com' }))).statusCode).toBe(202);
    expect(await codesTextedTo(phoneNumber)).toBe(1);

    // The phone's holder signs up in their own browser while the stranger's code waits: a 202 is
    // a code that went out, and it completes the holder's sign-up.
    const holder = browser(t.app, { remoteAddress: '10.60.0.4' });
    const asked = await holder.post('/api/register', newAccount({ phoneNumber, email: 'holder-second@example.com' }));
    expect(asked.statusCode).toBe(202);
    expect(await codesTextedTo(phoneNumber)).toBe(2);
    const done = await holder.post('/api/register/verify', { phoneNumber, code: await lastCodeTo(t.app, phoneNumber) });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ email: 'holder-second@example.com' });

    // A resend from a browser with no code waiting for the phone says that none was sent.
    clock.advance(PHONE_CODE.resendAfterMs + 1000);
    const nothing = await browser(t.app).post('/api/register/resend', { phoneNumber });
    expect([nothing.statusCode, nothing.json().message]).toEqual([400, NO_CODE_TO_RESEND]);
    expect(await codesTextedTo(phoneNumber)).toBe(2);
  });

  it('a code typed in any other browser does nothing: not even a try against the code', async () => {
    const phoneNumber = uniquePhone();
    const victim = browser(t.app);
    const form = newAccount({ phoneNumber, email: 'typed-elsewhere@example.com' });
    expect((await victim.post('/api/register', form)).statusCode).toBe(202);
    const code = await lastCodeTo(t.app, phoneNumber);

    // Mallory (no cookie, or her own) types the right code and then more than a code's tries.
    const mallory = browser(t.app);
    await mallory.post('/api/register', newAccount());
    for (const typed of [code, ...Array.from({ length: PHONE_CODE.maxTries + 1 }, (_, i) => String(200000 + i))]) {
      const res = await mallory.post('/api/register/verify', { phoneNumber, code: typed });
      expect([res.statusCode, res.json().message]).toEqual([400, CODE_GONE]);
    }
    const bare = await t.app.inject({ method: 'POST', url: '/api/register/verify', payload: { phoneNumber, code } });
    expect([bare.statusCode, bare.json().message]).toEqual([400, CODE_GONE]);
    expect(await accountsWithEmail('typed-elsewhere@example.com')).toBe(0);
    const [row] = await db().select({ tries: phoneCodes.tries }).from(phoneCodes).where(eq(phoneCodes.phoneNumber, phoneNumber));
    expect(row?.tries).toBe(0);

    // The victim's browser still completes it.
    const done = await victim.post('/api/register/verify', { phoneNumber, code });
    expect(done.statusCode).toBe(201);
    expect(done.json().email).toBe('typed-elsewhere@example.com');
  });

  it('the code-holder cookie is HttpOnly, SameSite=Strict, sent only to the sign-up routes, and new for every form', async () => {
    const tab = browser(t.app);
    const first = await tab.post('/api/register', newAccount());
    const cookie = first.cookies.find((c) => c.name === 'loop_sign_up');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/register', maxAge: PHONE_CODE.validMs / 1000 });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A secret someone planted in a browser is never kept for a new code.
    const planted = 'p'.repeat(43);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: newAccount(),
      headers: { cookie: `loop_sign_up=${planted}` },
    });
    expect(res.cookies.find((c) => c.name === 'loop_sign_up')?.value).not.toBe(planted);
    // No secret is stored as it is: the database keeps only its keyed hash.
    const rows = await db().select({ holderHash: phoneCodes.holderHash }).from(phoneCodes);
    expect(JSON.stringify(rows)).not.toContain(cookie?.value);
  });
});

describe('/register answers the same whatever state the phone is in', () => {
  it('a new phone, a phone whose sign-up waits (under and over 30 s), an account, an opted-out phone: one answer', async () => {
    const waiting = uniquePhone();
    await browser(t.app).post('/api/register', newAccount({ phoneNumber: waiting }));
    const waitingLong = uniquePhone();
    await browser(t.app).post('/api/register', newAccount({ phoneNumber: waitingLong }));
    const { account } = await signUp(t.app);
    const stopped = uniquePhone();
    await optOutPhone(db(), stopped, 'STOP', clock());
    clock.advance(10_000);
    const fresh = uniquePhone();
    // One stranger's browser for each question, as an attacker probing phones would send them.
    const forms: Record<string, string> = { fresh, waiting, account: account.phoneNumber, stopped };
    const answers = new Map<string, ReturnType<typeof seen>>();
    for (const [state, phoneNumber] of Object.entries(forms)) {
      const res = await browser(t.app).post('/api/register', newAccount({ phoneNumber }));
      answers.set(state, { ...seen(res), body: { ...res.json(), phoneNumber: 'the phone' } });
    }
    clock.advance(PHONE_CODE.resendAfterMs);
    const res = await browser(t.app).post('/api/register', newAccount({ phoneNumber: waitingLong }));
    answers.set('waiting over 30 s', { ...seen(res), body: { ...res.json(), phoneNumber: 'the phone' } });
    const expected = answers.get('fresh');
    expect(expected?.status).toBe(202);
    for (const [state, answer] of answers) expect({ state, ...answer }).toEqual({ state, ...expected });

    // A resend from a browser with no code of its own: the same 400 whatever waits for the phone.
    const justSent = uniquePhone();
    await browser(t.app).post('/api/register', newAccount({ phoneNumber: justSent }));
    const resends = new Map<string, ReturnType<typeof seen>>();
    for (const [state, phoneNumber] of Object.entries({
      nothing: uniquePhone(),
      justSent,
      overThirty: waitingLong,
      account: account.phoneNumber,
    })) {
      const resent = await browser(t.app).post('/api/register/resend', { phoneNumber });
      resends.set(state, seen(resent));
    }
    const first = resends.get('nothing');
    expect(first?.status).toBe(400);
    expect(first?.body).toEqual({ message: NO_CODE_TO_RESEND });
    for (const [state, answer] of resends) expect({ state, ...answer }).toEqual({ state, ...first });
  });
});

describe('"Forgot password?" codes work only in the browser that asked', () => {
  it("a reset code typed in another browser does nothing, and another browser's request does not replace it", async () => {
    const { account } = await signUp(t.app);
    clock.advance(PHONE_CODE.resendAfterMs);
    const holder = browser(t.app);
    const mallory = browser(t.app);
    const asked = await holder.post('/api/password-reset', { login: account.email });
    expect(asked.statusCode).toBe(202);
    const code = await lastCodeTo(t.app, account.phoneNumber);
    clock.advance(PHONE_CODE.resendAfterMs + 1000);
    // Mallory asks too: the same answer; her browser gets a code of its own, and the holder's
    // stays as it was (decision 0060).
    const hers = await mallory.post('/api/password-reset', { login: account.email });
    expect(seen(hers)).toEqual(seen(asked));
    expect(await lastCodeTo(t.app, account.phoneNumber)).not.toBe(code);

    // The code, typed in Mallory's browser (or with no cookie at all), sets no password.
    const attempt = { login: account.email, code, password: 'mallory owns this now' };
    const inHers = await mallory.post('/api/password-reset/confirm', attempt);
    const bare = await t.app.inject({ method: 'POST', url: '/api/password-reset/confirm', payload: attempt });
    for (const res of [inHers, bare]) expect(res.statusCode).toBe(400);
    expect(inHers.json()).toEqual(bare.json());
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: attempt.password } })).statusCode,
    ).toBe(401);

    // In the browser that asked, it does.
    const done = await holder.post('/api/password-reset/confirm', { ...attempt, password: 'the holder chose this' });
    expect(done.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: 'the holder chose this' } }))
        .statusCode,
    ).toBe(200);
  });
});
