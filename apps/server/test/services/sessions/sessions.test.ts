import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../../src/db/schema';
import { DAY_MS } from '../../../src/lib/clock';
import { deleteExpiredSessions } from '../../../src/services/sessions/delete-session';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';

let now = new Date('2026-03-01T12:00:00Z');
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
});
afterAll(() => t.close());

const me = (cookie: string) => t.app.inject({ url: '/api/user', headers: { cookie } });

describe('session expiry', () => {
  it('ends a session left unused for 14 days', async () => {
    const { cookie } = await signUp(t.app);
    advance(13 * DAY_MS);
    expect((await me(cookie)).statusCode).toBe(200);
    advance(13 * DAY_MS); // used a day ago: still alive
    expect((await me(cookie)).statusCode).toBe(200);
    advance(14 * DAY_MS + 60_000);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('ends every session 60 days after sign-in, even one in daily use', async () => {
    const { cookie } = await signUp(t.app);
    for (let day = 0; day < 59; day++) {
      advance(DAY_MS);
      expect((await me(cookie)).statusCode).toBe(200);
    }
    advance(DAY_MS);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('housekeeping', () => {
  it('deletes a session once it is past its absolute expiry, not before', async () => {
    const { user } = await signUp(t.app);
    const rows = () => t.testDb.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    const [session] = await rows();
    expect(session).toBeDefined();
    await deleteExpiredSessions(t.testDb.database.db, new Date(session!.expiresAt.getTime() - 1));
    expect(await rows()).toHaveLength(1);
    await deleteExpiredSessions(t.testDb.database.db, session!.expiresAt);
    expect(await rows()).toHaveLength(0);
  });
});

describe('cookies under https', () => {
  it('are Secure when PUBLIC_URL is https', async () => {
    const secureApp = await t.rebuild({ PUBLIC_URL: 'https://loop.example.com' });
    const { account } = await signUp(secureApp);
    const res = await secureApp.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: account.email, password: account.password },
    });
    const cookie = res.cookies.find((c) => c.name === 'loop_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});

describe('security headers', () => {
  it('are on every response', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
