import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/db/schema';
import { browser, createTestApp, lastCodeTo, newAccount, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { testClock } from '../../helpers/messaging';

/**
 * A session alone cannot move the account's phone, and a stranger cannot block a phone's codes
 * (decision 0052): the password first, the old phone told, every other session ended; per-phone
 * caps counted per purpose; answers that tell the truth when no code went.
 */
const PASSWORD = 'correct horse battery';
let t: TestContext;
const clock = testClock(new Date());
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

const textsTo = (phone: string, kind: string) =>
  t.app.ctx.db
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.toAddress, phone), eq(messages.kind, kind)));

describe('POST /api/user/phone asks for the password', () => {
  it('a stolen session without the password texts nothing: missing or wrong, a 400 that says so', async () => {
    const { cookie } = await signUp(t.app);
    const tab = browser(t.app, { headers: { cookie } });
    const fresh = uniquePhone();
    const missing = await tab.post('/api/user/phone', { phoneNumber: fresh });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/current password/i);
    const wrong = await tab.post('/api/user/phone', { phoneNumber: fresh, currentPassword: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^Your current password is not right/);
    expect(await textsTo(fresh, 'code')).toEqual([]);
  });
});

describe('after the change', () => {
  it('the old phone is texted that the number changed, and every other session of the account ends; this one stays', async () => {
    const signed = await signUp(t.app);
    const old = signed.user.phoneNumber;
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: signed.account.email, password: PASSWORD },
    });
    const otherSession = elsewhere.cookies.find((c) => c.name === 'loop_session')?.value;
    expect(otherSession).toBeTruthy();
    const tab = browser(t.app, { headers: { cookie: signed.cookie } });
    const fresh = uniquePhone();
    expect((await tab.post('/api/user/phone', { phoneNumber: fresh, currentPassword: PASSWORD })).statusCode).toBe(202);
    const verified = await tab.post('/api/user/phone/verify', { phoneNumber: fresh, code: await lastCodeTo(t.app, fresh) });
    expect(verified.statusCode).toBe(200);

    const notices = await textsTo(old, 'account_notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toBe(
      `Loop: the phone number of your Loop account was just changed to a number ending in ${fresh.slice(-4)}, so Loop no longer texts this phone for it. If you did not do this, use "Forgot password?" on the Loop website with your email now.`,
    );
    const other = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: `loop_session=${otherSession}` } });
    expect(other.statusCode).toBe(401);
    expect((await tab.get('/api/user')).statusCode).toBe(200);
  });
});

describe('per-phone caps per purpose, and the truth when no code went', () => {
  it('five sign-up codes a stranger had texted to a number do not stop its holder moving their account to it', async () => {
    const target = uniquePhone();
    const stranger = browser(t.app);
    for (let i = 0; i < 6; i++) {
      await stranger.post('/api/register', newAccount({ phoneNumber: target }));
      clock.advance(31_000);
    }
    expect(await textsTo(target, 'code')).toHaveLength(5);
    const { cookie } = await signUp(t.app);
    const tab = browser(t.app, { headers: { cookie } });
    const res = await tab.post('/api/user/phone', { phoneNumber: target, currentPassword: PASSWORD });
    expect(res.statusCode).toBe(202);
    expect(await textsTo(target, 'code')).toHaveLength(6);
  });

  it('"Forgot password?" says that no code is sent while one waits or after five an hour, for every account or none', async () => {
    const { account } = await signUp(t.app);
    const known = await browser(t.app).post('/api/password-reset', { login: account.email });
    const unknown = await browser(t.app).post('/api/password-reset', { login: 'nobody-at-all@example.com' });
    expect(known.json().message).toBe(unknown.json().message);
    expect(known.json().message).toBe(
      'If an account has this phone number or email, we texted a code to its phone. It is valid for 10 minutes. No code is sent within 30 seconds of the last one asked for in this browser, or after 5 in an hour: then try again later.',
    );
  });
});
