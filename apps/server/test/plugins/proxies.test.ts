import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, newAccount, type TestApp, type TestContext } from '../helpers/app';

/**
 * Behind a load balancer the client's address is the one the balancer appends, the right-most of
 * X-Forwarded-For; everything left of it is whatever the client wrote (decision 0029).
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An app on the file's database; each test uses addresses of its own. */
const app = (env: Record<string, string>): Promise<TestApp> => t.rebuild({ AUTH_RATE_LIMIT_PER_IP: '5', ...env });

const register = (a: TestApp, remoteAddress: string, forwardedFor?: string) =>
  a.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: newAccount(),
  });

/** Status codes of `n` sign-ups, each with a new left-most X-Forwarded-For entry. */
async function rotating(a: TestApp, n: number, proxy: string, client: string): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push((await register(a, proxy, `198.51.100.${i + 1}, ${client}`)).statusCode);
  return codes;
}

describe('per-address limits behind a proxy (TRUST_PROXY)', () => {
  it('behind one load balancer (TRUST_PROXY=1), rotating the left-most X-Forwarded-For entry does not escape the per-address limit', async () => {
    const a = await app({ TRUST_PROXY: '1' });
    expect(await rotating(a, 7, '10.0.0.2', '203.0.113.9')).toEqual([202, 202, 202, 202, 202, 429, 429]);
    // Another client behind the same balancer has its own count.
    expect((await register(a, '10.0.0.2', '203.0.113.10')).statusCode).toBe(202);
  });

  it('with the proxies named by address (TRUST_PROXY=10.0.0.0/8), the same', async () => {
    const a = await app({ TRUST_PROXY: '10.0.0.0/8, 192.168.0.1' });
    expect(await rotating(a, 6, '10.1.2.3', '203.0.113.20')).toEqual([202, 202, 202, 202, 202, 429]);
    // A request that does not come from a named proxy is counted by its own address, whatever it says.
    const direct = [];
    for (let i = 0; i < 6; i++) direct.push((await register(a, '203.0.113.30', `198.51.100.${i + 1}`)).statusCode);
    expect(direct).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('sign-in failures per account and address are counted by the balancer-appended address too', async () => {
    const a = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_ACCOUNT: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await a.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.40` },
        payload: { email: 'victim@example.com', password: 'wrong password' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored', async () => {
    const a = await app({});
    expect(await rotating(a, 6, '203.0.113.50', '203.0.113.51')).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe('IPv6 clients are counted per /64', () => {
  it('rotating the last 64 bits of an IPv6 address does not escape the per-address limit; another /64 has its own count', async () => {
    const a = await app({});
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await register(a, `2001:db8:1:2:${(i + 1).toString(16)}::${i + 7}`)).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await register(a, '2001:db8:1:3::1')).statusCode).toBe(202);
  });

  it('behind a balancer too: the appended IPv6 client is counted by its /64', async () => {
    const a = await app({ TRUST_PROXY: '1' });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await register(a, '10.0.0.2', `198.51.100.1, 2001:db8:9:9::${i + 1}`)).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('joining by invite is limited per /64 as well', async () => {
    const a = await app({});
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await a.inject({
        method: 'GET',
        url: `/api/invites/${'x'.repeat(20)}${i}`,
        remoteAddress: `2001:db8:5:5::${i + 1}`,
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([404, 404, 404, 404, 404, 429]);
  });
});
