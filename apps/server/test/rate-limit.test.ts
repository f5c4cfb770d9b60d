import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSchema } from '@loop/shared/auth';
import { attemptCounts } from '../src/db/schema';
import { countAttempts, deleteExpiredAttempts } from '../src/services/attempts/count-attempts';
import { registerUser } from '../src/services/users/register-user';
import { createTestApp, newAccount, type TestContext } from './helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_ACCOUNT: '3', AUTH_RATE_LIMIT_PER_IP: '8' });
});
afterAll(() => t.close());

const login = (email: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password: 'wrong password' } });

describe('sign-in rate limits', () => {
  it('stop guessing one account, from any address, with a readable 429', async () => {
    // Made straight in the database: a sign-up through the API would count as an attempt.
    const account = newAccount();
    await registerUser(t.testDb.database.db, registerSchema.parse(account), { adminEmails: [], now: new Date() });
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
      expect((await login(account.email, ip)).statusCode).toBe(401);
    }
    const blocked = await login(account.email.toUpperCase(), '10.0.0.4');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    // Another account is not affected.
    expect((await login('someone-else@example.com', '10.0.0.5')).statusCode).toBe(401);
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
    expect(codes.slice(0, 8)).toEqual(Array(8).fill(201));
    expect(codes[8]).toBe(429);
  });
});

describe('attempt counts', () => {
  it('are shared by every server process on the database: two processes allow what one does', async () => {
    const [one, two] = [t.app, await t.rebuild()];
    const email = 'shared-count@example.com';
    const codes: number[] = [];
    for (const app of [one, two, one, two]) {
      const res = await app.inject({ method: 'POST', url: '/api/login', remoteAddress: `10.3.3.${codes.length + 1}`, payload: { email, password: 'wrong password' } });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });

  it('keep no email or address in the database, only keyed hashes', async () => {
    await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.4.4.4', payload: { email: 'private@example.com', password: 'wrong password' } });
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

    const keys = () => db.select({ key: attemptCounts.key }).from(attemptCounts).where(sql`${attemptCounts.key} like 'window-%'`);
    await deleteExpiredAttempts(db, at(29));
    expect((await keys()).map((r) => r.key).sort()).toEqual(['window-other', 'window-test']);
    await deleteExpiredAttempts(db, at(31));
    expect(await keys()).toEqual([]);
  });
});
