import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_CODE } from '../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, lastCodeTo, newAccount, uniquePhone, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { testClock } from '../helpers/messaging';

/**
 * The code step of sign-up survives a reload: the browser still holds its sign-up (the code-holder
 * cookie of decision 0027, and beside it the phone it was for), so GET /api/register/pending says
 * so with the phone masked, and the code or "Resend code" work without the phone typed again.
 * With Twilio, as in production: no answer carries a simulated text.
 */
const clock = testClock(new Date('2026-07-01T09:00:00Z'));
let t: TestContext;
let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake), { clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const pending = async (tab: ReturnType<typeof browser>) => (await tab.get('/api/register/pending')).json<{ signUp: unknown }>().signUp;
/** A US number the tests can mask: +1 415 555 01xx. */
const masked = (phoneNumber: string) => `+1 •••••••• ${phoneNumber.slice(-2)}`;

describe('GET /api/register/pending', () => {
  it('after a reload the browser finds its sign-up, types the code without the phone, and then has none', async () => {
    const tab = browser(t.app);
    expect(await pending(tab)).toBeNull();
    const phoneNumber = uniquePhone();
    expect((await tab.post('/api/register', newAccount({ phoneNumber, email: 'reload@example.com' }))).statusCode).toBe(202);
    clock.advance(7_000);
    expect(await pending(tab)).toEqual({ maskedPhoneNumber: masked(phoneNumber), expiresInSeconds: 593, resendAfterSeconds: 23 });

    // The answer is the whole answer: the full number is in no byte of it.
    expect((await tab.get('/api/register/pending')).body).not.toContain(phoneNumber.slice(2, 10));

    const done = await tab.post('/api/register/verify', { code: await lastCodeTo(t.app, phoneNumber) });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ email: 'reload@example.com' });
    expect(await pending(tab)).toBeNull();
  });

  it('"Resend code" after a reload texts a new code to the same phone, once the 30 seconds are over', async () => {
    const tab = browser(t.app);
    const phoneNumber = uniquePhone();
    await tab.post('/api/register', newAccount({ phoneNumber }));
    const first = await lastCodeTo(t.app, phoneNumber);
    const tooSoon = await tab.post('/api/register/resend', {});
    expect(tooSoon.statusCode).toBe(429);
    clock.advance(PHONE_CODE.resendAfterMs);
    expect(await pending(tab)).toMatchObject({ resendAfterSeconds: 0 });
    const resent = await tab.post('/api/register/resend', {});
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toMatchObject({ phoneNumber: masked(phoneNumber) });
    const second = await lastCodeTo(t.app, phoneNumber);
    expect(second).not.toBe(first);
    expect((await tab.post('/api/register/verify', { code: second })).statusCode).toBe(201);
  });

  it('a form while another browser waits for the phone gets its own code step, and only its own code completes it', async () => {
    const phoneNumber = uniquePhone();
    const first = browser(t.app);
    await first.post('/api/register', newAccount({ phoneNumber }));
    const firstCode = await lastCodeTo(t.app, phoneNumber);
    const second = browser(t.app);
    await second.post('/api/register', newAccount({ phoneNumber }));
    expect((await pending(second)) as Record<string, unknown>).toMatchObject({ maskedPhoneNumber: masked(phoneNumber) });
    // The first browser's code is not the second's (decision 0060).
    const typed = await second.post('/api/register/verify', { code: firstCode });
    expect(typed.statusCode).toBe(400);
  });

  it('names no phone to another browser, to a copied phone cookie, or once the code ran out', async () => {
    const phoneNumber = uniquePhone();
    const tab = browser(t.app);
    await tab.post('/api/register', newAccount({ phoneNumber }));
    // This browser's phone cookie beside another secret, or a made-up one: the signature does not match.
    const copied = browser(t.app, {
      headers: { cookie: `loop_sign_up=${'A'.repeat(43)}; loop_sign_up_phone=${tab.cookie('loop_sign_up_phone') ?? ''}` },
    });
    expect(await pending(tab)).not.toBeNull();
    expect(await pending(copied)).toBeNull();
    const planted = browser(t.app, {
      headers: {
        cookie: `loop_sign_up=${'A'.repeat(43)}; loop_sign_up_phone=${encodeURIComponent(`${phoneNumber}.${clock().getTime()}.x`)}`,
      },
    });
    expect(await pending(planted)).toBeNull();
    expect((await planted.post('/api/register/verify', { code: '123456' })).json()).toMatchObject({
      message: expect.stringContaining('expired'),
    });

    clock.advance(PHONE_CODE.validMs);
    expect(await pending(tab)).toBeNull();
  });

  it('without a sign-up, a code or a resend without the phone is a 400 that says to ask again', async () => {
    const res = await browser(t.app).post('/api/register/resend', {});
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Ask for a new code/);
  });
});
