import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptCounts } from '../../../src/db/schema';
import { countAttempts, deleteExpiredAttempts } from '../../../src/services/attempts/count-attempts';
import { createTestApp, newAccount, signUp, type TestContext } from '../../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_ACCOUNT: '3', AUTH_RATE_LIMIT_PER_IP: '8' });
});
afterAll(() => t.close());

const login = (email: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password: 'wrong password' } });

describe('sign-in rate limits (decision 0013: failures per account and address, and a ceiling per account)', () => {
  it('stop one address guessing an account with a readable 429, while the holder still signs in from their own', async () => {
    const { account } = await signUp(t.app, {}, { remoteAddress: '10.0.1.1' });
    for (let i = 0; i < 3; i++) expect((await login(account.email, '10.0.0.1')).statusCode).toBe(401);
    const blocked = await login(account.email.toUpperCase(), '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    // Blocked even with the right password: the guesser cannot test it either.
    const right = { email: account.email, password: account.password };
    expect((await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.0.1', payload: right })).statusCode).toBe(429);
    // The holder, from their own address, signs in; the stranger's failures did not lock them out.
    expect((await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.0.1.1', payload: right })).statusCode).toBe(200);
    // Another account is not affected.
    expect((await login('someone-else@example.com', '10.0.0.5')).statusCode).toBe(401);
  });

  it('count failures, not successes: signing in often never blocks, and a success clears the address', async () => {
    const { account } = await signUp(t.app);
    const ip = '10.0.2.1';
    const right = () =>
      t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, payload: { email: account.email, password: account.password } });
    // (This app allows 8 attempts per address in all, successes included.)
    for (let i = 0; i < 2; i++) expect((await right()).statusCode).toBe(200);
    // Two typos, a success, two typos, a success: the third failure never comes.
    for (let round = 0; round < 2; round++) {
      expect((await login(account.email, ip)).statusCode).toBe(401);
      expect((await login(account.email, ip)).statusCode).toBe(401);
      expect((await right()).statusCode).toBe(200);
    }
  });

  it('stop many addresses guessing one account at the per-account ceiling: past it, a password alone never signs in', async () => {
    const app = await t.rebuild({ AUTH_FAILURES_PER_ACCOUNT: '5' });
    const { account } = await signUp(app);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/login',
            remoteAddress: `10.0.3.${i}`,
            payload: { email: account.email, password: 'wrong password' },
          })
        ).statusCode,
      );
    // Past the ceiling every answer asks for a code texted to the account's phone, right password
    // or not (test/security/lockout.test.ts: the holder is never locked out).
    expect(codes).toEqual([401, 401, 401, 401, 401, 202]);
  });

  it('stop one address trying many accounts', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 8; i++) {
      expect((await login(`guess-${i}@example.com`, ip)).statusCode).toBe(401);
    }
    expect((await login('guess-final@example.com', ip)).statusCode).toBe(429);
  });

  it('stop one address registering without end', async () => {
    const ip = '10.7.7.7';
    const codes: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/register', remoteAddress: ip, payload: newAccount() });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 8)).toEqual(Array(8).fill(202));
    expect(codes[8]).toBe(429);
  });
});

describe('attempt counts', () => {
  it('are shared by every server process on the database: two processes allow what one does', async () => {
    const [one, two] = [t.app, await t.rebuild()];
    const email = 'shared-count@example.com';
    const codes: number[] = [];
    for (const app of [one, two, one, two]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '10.3.3.1',
        payload: { email, password: 'wrong password' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });

  it('keep no email or address in the database, only keyed hashes', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.4.4.4',
      payload: { email: 'private@example.com', password: 'wrong password' },
    });
    const rows = await t.testDb.database.db.select().from(attemptCounts);
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('private@example.com');
    expect(text).not.toContain('10.4.4.4');
  });

  it('start a new window once the last one ended, and expired counts are deleted', async () => {
    const db = t.testDb.database.db;
    const start = new Date('2026-05-01T12:00:00Z');
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    const window = 15 * 60_000;
    expect((await countAttempts(db, ['window-test'], at(0), window))[0]?.count).toBe(1);
    expect((await countAttempts(db, ['window-test'], at(14), window))[0]).toEqual({ count: 2, windowEndsAt: at(15) });
    // The window runs from the first attempt, not the last: at 15 minutes a new one starts.
    expect((await countAttempts(db, ['window-test'], at(15), window))[0]).toEqual({ count: 1, windowEndsAt: at(30) });
    // Several keys at once, in any order, each with its own count.
    const [a, b] = await countAttempts(db, ['window-test', 'window-other'], at(16), window);
    expect([a?.count, b?.count]).toEqual([2, 1]);

    const keys = () =>
      db
        .select({ key: attemptCounts.key })
        .from(attemptCounts)
        .where(sql`${attemptCounts.key} like 'window-%'`);
    await deleteExpiredAttempts(db, at(29));
    expect((await keys()).map((r) => r.key).sort()).toEqual(['window-other', 'window-test']);
    await deleteExpiredAttempts(db, at(31));
    expect(await keys()).toEqual([]);
  });
});
