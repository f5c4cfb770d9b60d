import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { DAY_MS } from '../../src/lib/clock';
import { SESSION_ABSOLUTE_MS } from '../../src/services/sessions/session-policy';
import { createTestApp, sessionCookie, signUp, type TestApp, type TestContext } from '../helpers/app';

/**
 * docs/security.md#sessions, the parts test/services/users/auth.test.ts and test/services/sessions/sessions.test.ts leave open: a token a
 * stranger plants is never adopted, the database keeps no usable token, logout removes the row and
 * clears the cookie with the same attributes, and every cookie is HttpOnly, SameSite=Lax and
 * (under https) Secure, with the absolute expiry as its own.
 */
let now = new Date('2026-04-01T09:00:00Z');
let t: TestContext;
let secure: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  secure = await t.rebuild({ PUBLIC_URL: 'https://loop.example.com' });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
const me = (app: TestApp, cookie: string) => app.inject({ url: '/api/user', headers: { cookie } });
const login = (app: TestApp, account: { email: string; password: string }, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: account.email, password: account.password },
    ...(cookie ? { headers: { cookie } } : {}),
  });
const rowsOf = (userId: number) => db().select().from(sessions).where(eq(sessions.userId, userId));

describe('the session token', () => {
  it('planted by someone else before sign-in is never adopted', async () => {
    const { account } = await signUp(t.app);
    const planted = 'loop_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const res = await login(t.app, account, planted);
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res)).not.toBe(planted);
    expect((await me(t.app, planted)).statusCode).toBe(401);
    expect((await me(t.app, sessionCookie(res))).statusCode).toBe(200);
  });

  it('is kept in the database only as a keyed hash, which is no use as a cookie', async () => {
    const { user, cookie } = await signUp(t.app);
    const token = cookie.replace('loop_session=', '');
    const [row] = await rowsOf(user.id);
    expect(row?.tokenHash).toBeDefined();
    expect(row?.tokenHash).not.toBe(token);
    expect(JSON.stringify(await db().select().from(sessions))).not.toContain(token);
    expect((await me(t.app, `loop_session=${row?.tokenHash}`)).statusCode).toBe(401);
  });

  it('changes at every sign-in, and the one before stops working', async () => {
    const { account, user, cookie } = await signUp(t.app);
    const second = sessionCookie(await login(t.app, account, cookie));
    const third = sessionCookie(await login(t.app, account, second));
    expect(new Set([cookie, second, third]).size).toBe(3);
    for (const old of [cookie, second]) expect((await me(t.app, old)).statusCode).toBe(401);
    expect((await me(t.app, third)).statusCode).toBe(200);
    expect(await rowsOf(user.id)).toHaveLength(1);
  });
});

describe('sign-up', () => {
  it('in a browser that was signed in ends the session it had', async () => {
    const before = await signUp(t.app);
    const { response: res } = await signUp(t.app, {}, { headers: { cookie: before.cookie } });
    expect(res.statusCode).toBe(201);
    expect(sessionCookie(res)).not.toBe(before.cookie);
    expect((await me(t.app, before.cookie)).statusCode).toBe(401);
    expect(await rowsOf(before.user.id)).toHaveLength(0);
  });
});

describe('logout', () => {
  it('deletes the session row and clears the cookie with the attributes it was set with', async () => {
    const { user, cookie } = await signUp(secure);
    expect(await rowsOf(user.id)).toHaveLength(1);
    const res = await secure.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === 'loop_session');
    expect(cleared).toMatchObject({ value: '', path: '/', httpOnly: true, sameSite: 'Lax', secure: true });
    expect(cleared?.expires && cleared.expires.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await rowsOf(user.id)).toHaveLength(0);
    expect((await me(secure, cookie)).statusCode).toBe(401);
  });
});

describe('the cookie', () => {
  it.each([
    ['http', () => t.app, false],
    ['https', () => secure, true],
  ] as const)(
    'under %s: HttpOnly, SameSite=Lax, Secure only under https, and it expires with the session',
    async (_scheme, app, isSecure) => {
      const { account, response: registered } = await signUp(app());
      const loggedIn = await login(app(), account);
      for (const res of [registered, loggedIn]) {
        const cookie = res.cookies.find((c) => c.name === 'loop_session');
        expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
        expect(Boolean(cookie?.secure)).toBe(isSecure);
        expect(cookie?.expires?.getTime()).toBe(now.getTime() + SESSION_ABSOLUTE_MS);
      }
    },
  );
});

describe('expiry by the clock', () => {
  it('ends an idle session on every route, not only /api/user', async () => {
    const owner = await signUp(t.app);
    const idle = owner.cookie;
    const loops = (cookie: string) => t.app.inject({ url: '/api/loops', headers: { cookie } });
    expect((await loops(idle)).statusCode).toBe(200);
    now = new Date(now.getTime() + 15 * DAY_MS);
    expect((await loops(idle)).statusCode).toBe(401);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie: idle },
      payload: { name: 'Late', vibe: ['fun'] },
    });
    expect(create.statusCode).toBe(401);
  });
});
