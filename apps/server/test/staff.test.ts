import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/cli/admin';
import { createTestApp, sessionCookie, signUp, type TestContext } from './helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com, Chief@Example.com' });
});
afterAll(() => t.close());

describe('ADMIN_EMAILS', () => {
  it('makes a listed email staff at sign-up, whatever its case', async () => {
    const { user } = await signUp(t.app, { email: 'CHIEF@example.com' });
    expect(user.isPrivileged).toBe(true);
  });

  it('leaves everyone else without staff rights', async () => {
    const { user } = await signUp(t.app);
    expect(user.isPrivileged).toBe(false);
  });

  it('makes an existing account staff when it signs in after being listed', async () => {
    const { account, user } = await signUp(t.app, { email: 'later@example.com' });
    expect(user.isPrivileged).toBe(false);
    const listed = await t.rebuild({ ADMIN_EMAILS: 'later@example.com' });
    const res = await listed.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: account.email, password: account.password },
    });
    expect(res.json().isPrivileged).toBe(true);
    const me = await listed.inject({ url: '/api/user', headers: { cookie: sessionCookie(res) } });
    expect(me.json().isPrivileged).toBe(true);
  });
});

describe('npm run admin', () => {
  it('grants and revokes staff rights and says what it did', async () => {
    const { account, cookie } = await signUp(t.app, { email: 'helper@example.com' });
    const db = t.testDb.database.db;

    expect(await runAdminCommand(db, ['grant', 'Helper@Example.com'])).toEqual({
      output: 'helper@example.com is now staff (isPrivileged).',
      code: 0,
    });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().isPrivileged).toBe(true);
    expect((await runAdminCommand(db, ['grant', account.email])).output).toBe(
      'helper@example.com already has staff rights: nothing changed.',
    );

    expect(await runAdminCommand(db, ['revoke', account.email])).toEqual({
      output: 'helper@example.com is no longer staff.',
      code: 0,
    });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().isPrivileged).toBe(false);
  });

  it('explains an unknown email and bad usage', async () => {
    const db = t.testDb.database.db;
    expect(await runAdminCommand(db, ['grant', 'ghost@example.com'])).toEqual({
      output: 'No account has the email ghost@example.com. The person must sign up first.',
      code: 1,
    });
    expect((await runAdminCommand(db, ['promote', 'x@example.com'])).code).toBe(2);
    expect((await runAdminCommand(db, [])).output).toMatch(/^Usage: npm run admin -- grant <email>/);
  });
});
