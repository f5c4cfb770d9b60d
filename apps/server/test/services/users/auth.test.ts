import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, createTestApp, lastCodeTo, newAccount, sessionCookie, signUp, type TestContext } from '../../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/register and /api/register/verify', () => {
  it('texts a code first, and only the code creates the account, signs it in, and never returns a password', async () => {
    const account = newAccount({ email: '  Grace.Hopper@Example.COM ', phoneNumber: '(415) 555-0142' });
    const tab = browser(t.app);
    const started = await tab.post('/api/register', account);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ phoneNumber: '+14155550142', expiresInSeconds: 600, resendAfterSeconds: 30 });
    expect(started.cookies.find((c) => c.name === 'loop_session')).toBeUndefined();
    // No account yet: the email cannot sign in.
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'grace.hopper@example.com', password: account.password },
    });
    expect(early.statusCode).toBe(401);

    const code = await lastCodeTo(t.app, '+14155550142');
    const res = await tab.post('/api/register/verify', { phoneNumber: '415 555 0142', code });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      email: 'grace.hopper@example.com',
      phoneNumber: '+14155550142',
      firstName: 'Ada',
      messagingPreference: 'sms',
      isPrivileged: false,
    });
    expect(JSON.stringify(user)).not.toMatch(/password/i);

    const cookie = res.cookies.find((c) => c.name === 'loop_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43,}$/);

    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(user);
    expect(me.body).not.toMatch(/password|hash/i);
  });

  it('answers a known email or phone exactly as a new one (no lookups)', async () => {
    const { account } = await signUp(t.app, { phoneNumber: '+1 415 555 0177' });
    const fresh = newAccount();
    const answers = [];
    for (const payload of [newAccount({ email: account.email.toUpperCase() }), newAccount({ phoneNumber: '415.555.0177' }), fresh]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/register', payload });
      expect(res.statusCode).toBe(202);
      answers.push(Object.keys(res.json()).sort().join());
    }
    expect(new Set(answers).size).toBe(1);
  });

  it('tells the proven holder of a phone that already has an account, and the email of another account, with 409', async () => {
    const { account } = await signUp(t.app, { phoneNumber: '+1 415 555 0178' });
    const tab = browser(t.app);
    await tab.post('/api/register', newAccount({ phoneNumber: '415.555.0178' }));
    const samePhone = await tab.post('/api/register/verify', {
      phoneNumber: '+14155550178',
      code: await lastCodeTo(t.app, '+14155550178'),
    });
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json().message).toBe(
      'This phone number already has an account. Log in, or use "Forgot password?" to set a new password.',
    );

    const other = newAccount({ email: account.email.toUpperCase() });
    await tab.post('/api/register', other);
    const sameEmail = await tab.post('/api/register/verify', {
      phoneNumber: other.phoneNumber,
      code: await lastCodeTo(t.app, other.phoneNumber),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe(
      'This email is already used by another account. Go back and use another email, or log in with it.',
    );
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'Email must be a valid email address'],
    ['missing email', { email: undefined }, 'Email is required'],
    ['phone', { phoneNumber: '12345' }, 'Phone number must be a valid international number, like +1 415 555 0100'],
    ['short password', { password: 'short' }, 'Password must be at least 8 characters'],
    [
      'common password',
      { password: '12345678' },
      'This password is one of the most common passwords, which attackers try first. Please choose another.',
    ],
    [
      'common password in capitals',
      { password: 'PASSWORD1' },
      'This password is one of the most common passwords, which attackers try first. Please choose another.',
    ],
    ['first name', { firstName: '   ' }, 'First name is required'],
    ['preference', { messagingPreference: 'pigeon' }, 'Messaging preference must be "sms" or "whatsapp"'],
  ])('refuses a bad %s with a 400 naming the field', async (_name, change, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: newAccount(change) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('refuses a form-encoded body with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.com&password=12345678',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/JSON only/);
  });

  it('answers malformed JSON with a readable 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON.');
  });
});

describe('POST /api/login', () => {
  it('signs in with a new token each time, and the cookie works', async () => {
    const { account, cookie: first } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: first },
      payload: { email: account.email.toUpperCase(), password: account.password },
    });
    expect(res.statusCode).toBe(200);
    const second = sessionCookie(res);
    expect(second).not.toBe(first);
    // The session that was open before sign-in is replaced, not kept alongside.
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: first } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: second } })).json().email).toBe(account.email);
  });

  it('gives one generic message for a wrong password and an unknown email', async () => {
    const { account } = await signUp(t.app);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: account.email, password: 'wrong password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });
});

describe('POST /api/logout', () => {
  it('makes the old cookie useless', async () => {
    const { cookie } = await signUp(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'loop_session')?.value).toBe('');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });
});

describe('GET and PUT /api/user', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ url: '/api/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Please log in to continue.');
  });

  it('ignores a forged cookie', async () => {
    const res = await t.app.inject({ url: '/api/user', headers: { cookie: 'loop_session=forged-token' } });
    expect(res.statusCode).toBe(401);
  });

  it('changes the messaging preference', async () => {
    const { cookie } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: { cookie },
      payload: { messagingPreference: 'whatsapp' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().messagingPreference).toBe('whatsapp');
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().messagingPreference).toBe('whatsapp');

    const bad = await t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie }, payload: { messagingPreference: 'fax' } });
    expect(bad.statusCode).toBe(400);
    const signedOut = await t.app.inject({ method: 'PUT', url: '/api/user', payload: { messagingPreference: 'sms' } });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('unknown API routes', () => {
  it('answer 404 with a message', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Not found: GET /api/nothing-here');
  });
});
