import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { PHONE_CODE } from '../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, lastCodeTo, sessionCookie, signUp, type TestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { testClock } from '../helpers/messaging';

/**
 * No targeted lockout (decision 0028): 100 wrong passwords for one email from 10 addresses
 * (the defaults: 10 failures per email and address, 100 per email) must not shut the holder out.
 * Past the ceiling a right password leads to a code texted to the account's phone, which the
 * attacker can neither read, trigger nor use up; a wrong one gets the very same answer.
 */
const clock = testClock(new Date('2026-08-01T09:00:00Z'));
let t: TestContext;
let fake: FakeTwilio;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake), { clock });
  // The shipped limits, not the tests' generous ones.
  app = await t.rebuild({ AUTH_RATE_LIMIT_PER_IP: '50', AUTH_RATE_LIMIT_PER_ACCOUNT: '10', AUTH_FAILURES_PER_ACCOUNT: '100' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const signInCodesTo = async (phoneNumber: string) =>
  (
    await t.testDb.database.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.toAddress, phoneNumber), eq(messages.kind, 'code')))
  )[0]?.n ?? 0;
const seen = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json<unknown>() });

/** 100 wrong passwords for the email from 10 addresses, 10 from each. */
async function guessFromTenAddresses(email: string) {
  for (let address = 1; address <= 10; address++) {
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: `10.70.${address}.1`,
        payload: { email, password: `wrong password ${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
  }
}

describe('a stranger cannot lock an account holder out', () => {
  it('after 100 wrong passwords from 10 addresses, the right password from a new address leads to a texted code that signs in', async () => {
    const { account } = await signUp(app, {}, { remoteAddress: '10.70.0.1' });
    await guessFromTenAddresses(account.email);
    const codesBefore = await signInCodesTo(account.phoneNumber);

    // The holder, on a new address, with the right password: no 429, a code to finish.
    const holder = browser(app, { remoteAddress: '10.70.99.1' });
    const right = { email: account.email, password: account.password };
    const asked = await holder.post('/api/login', right);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ codeRequired: true, resendAfterSeconds: 30, simulatedText: null });
    expect(asked.cookies.find((c) => c.name === 'loop_session')).toBeUndefined();
    expect(await signInCodesTo(account.phoneNumber)).toBe(codesBefore + 1);
    const code = await lastCodeTo(app, account.phoneNumber);

    // A wrong password from a new address gets the very same answer, and texts nothing.
    const stranger = browser(app, { remoteAddress: '10.70.98.1' });
    const wrong = await stranger.post('/api/login', { email: account.email, password: 'still guessing' });
    expect(seen(wrong)).toEqual(seen(asked));
    expect(await signInCodesTo(account.phoneNumber)).toBe(codesBefore + 1);
    // The code is no use in another browser, even with the right password: the same 400 as a wrong one.
    const elsewhere = await stranger.post('/api/login', { ...right, code });
    const wrongWithCode = await stranger.post('/api/login', { email: account.email, password: 'still guessing', code });
    expect(elsewhere.statusCode).toBe(400);
    expect(seen(elsewhere)).toEqual(seen(wrongWithCode));

    // The holder enters the code: signed in.
    const done = await holder.post('/api/login', { ...right, code });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ email: account.email });
    expect((await app.inject({ url: '/api/user', headers: { cookie: sessionCookie(done) } })).statusCode).toBe(200);
    // The code is spent.
    expect((await holder.post('/api/login', { ...right, code })).statusCode).not.toBe(200);
  });

  it('keeps the per-address limits: each guessing address stays stopped with a 429', async () => {
    const { account } = await signUp(app);
    await guessFromTenAddresses(account.email);
    const again = await app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.70.1.1',
      payload: { email: account.email, password: account.password },
    });
    expect(again.statusCode).toBe(429);
  });

  it("the attacker cannot block the code: using up the phone's reset codes leaves sign-in (and sign-up) codes alone", async () => {
    const { account } = await signUp(app);
    await guessFromTenAddresses(account.email);
    // Mallory asks for reset codes for the account until the phone's cap on codes is reached.
    const resets = browser(app, { remoteAddress: '10.71.0.1' });
    for (let i = 0; i < PHONE_CODE.perPhone + 1; i++) {
      clock.advance(PHONE_CODE.resendAfterMs);
      await resets.post('/api/password-reset', { login: account.email });
    }
    // Reset codes are counted apart (decision 0052): the phone's sign-up codes are not used up either.
    const signUpForm = await browser(app).post('/api/register', { ...account, email: 'other@example.com' });
    expect(signUpForm.statusCode).toBe(202);
    clock.advance(PHONE_CODE.resendAfterMs);
    const holder = browser(app, { remoteAddress: '10.70.97.1' });
    const before = await signInCodesTo(account.phoneNumber);
    expect((await holder.post('/api/login', { email: account.email, password: account.password })).statusCode).toBe(202);
    expect(await signInCodesTo(account.phoneNumber)).toBe(before + 1);
    const code = await lastCodeTo(app, account.phoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    // Her wrong codes from her own browser do not count against it.
    const mallory = browser(app, { remoteAddress: '10.71.1.1' });
    for (let i = 0; i < PHONE_CODE.maxTries + 1; i++) {
      await mallory.post('/api/login', { email: account.email, password: 'a guess', code: String(300000 + i) });
    }
    expect((await holder.post('/api/login', { email: account.email, password: account.password, code })).statusCode).toBe(200);
  });
});
