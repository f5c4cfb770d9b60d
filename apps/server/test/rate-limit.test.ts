import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, newAccount, signUp, type TestContext } from './helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_ACCOUNT: '3', AUTH_RATE_LIMIT_PER_IP: '8' });
});
afterAll(() => t.close());

const login = (email: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password: 'wrong password' } });

describe('sign-in rate limits', () => {
  it('stop guessing one account, from any address, with a readable 429', async () => {
    // The account is made through another server process, so its sign-up does not count here.
    const { account } = await signUp(await t.rebuild());
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
