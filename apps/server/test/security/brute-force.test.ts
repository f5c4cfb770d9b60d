import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, messages, phoneCodes } from '../../src/db/schema';
import { browser, createTestApp, newAccount, signUp, uniquePhone, type TestApp, type TestContext } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';

/**
 * docs/security.md#brute-force, the cases test/services/attempts/rate-limit.test.ts (login per account and per address,
 * register per address) and test/services/invites/invites.test.ts (join per phone) leave open: register per
 * account, join and invite-code guessing per address, and that a refused attempt writes nothing.
 * Counts live in the database, shared by every app on it: each test tries addresses and accounts
 * of its own, so each starts with fresh counts.
 */
const PER_ACCOUNT = 3;
const PER_IP = 5;

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const limitedApp = () => t.rebuild({ AUTH_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT), AUTH_RATE_LIMIT_PER_IP: String(PER_IP) });
const db = () => t.testDb.database.db;
const TOO_MANY = /^Too many attempts\. Please wait \d+ minutes? and try again\.$/;

async function inviteCode(app: TestApp) {
  const owner = await signUp(await t.rebuild());
  const loop = await createLoopAs(app, owner.cookie);
  const res = await app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } });
  return { loop, code: res.json<{ code: string }>().code };
}

describe('sign-up', () => {
  it('texts a phone once per browser per 30 seconds, within its caps; its own browser is told to wait with a readable 429', async () => {
    const app = await limitedApp();
    const phoneNumber = uniquePhone();
    const first = browser(app, { remoteAddress: '10.20.0.1' });
    const codes: number[] = [(await first.post('/api/register', newAccount({ phoneNumber }))).statusCode];
    for (let i = 1; i < 3; i++) {
      // Other browsers get codes of their own (decision 0060): every 202 is a code sent.
      const res = await browser(app, { remoteAddress: `10.20.0.${i + 1}` }).post('/api/register', newAccount({ phoneNumber }));
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([202, 202, 202]);
    const again = await first.post('/api/register', newAccount({ phoneNumber }));
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^A code was just sent\. Please wait \d+ seconds before asking for another\.$/);
    expect(await db().select().from(messages).where(eq(messages.toAddress, phoneNumber))).toHaveLength(3);
  });

  it('writes nothing once refused', async () => {
    const app = await limitedApp();
    const ip = '10.21.0.1';
    for (let i = 0; i < PER_IP; i++) {
      expect((await app.inject({ method: 'POST', url: '/api/register', remoteAddress: ip, payload: newAccount() })).statusCode).toBe(202);
    }
    const refused = newAccount();
    const res = await app.inject({ method: 'POST', url: '/api/register', remoteAddress: ip, payload: refused });
    expect(res.statusCode).toBe(429);
    expect(res.cookies).toEqual([]);
    expect(await db().select().from(phoneCodes).where(eq(phoneCodes.phoneNumber, refused.phoneNumber))).toEqual([]);
    expect(await db().select().from(messages).where(eq(messages.toAddress, refused.phoneNumber))).toEqual([]);
  });
});

describe('joining by invite', () => {
  it('is limited per address: many phone numbers from one address, and the refused one is not added', async () => {
    const app = await limitedApp();
    const { loop, code } = await inviteCode(app);
    const ip = '10.22.0.1';
    const join = (phoneNumber: string) =>
      app.inject({
        method: 'POST',
        url: `/api/invites/${code}/join`,
        remoteAddress: ip,
        payload: { firstName: 'Jo', lastName: 'March', phoneNumber },
      });
    for (let i = 0; i < PER_IP; i++) expect((await join(uniquePhone())).statusCode).toBe(200);
    const before = await db().select({ n: count() }).from(members).where(eq(members.loopId, loop.id));
    const blocked = await join(uniquePhone());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(TOO_MANY);
    expect(await db().select({ n: count() }).from(members).where(eq(members.loopId, loop.id))).toEqual(before);
    // Another address still gets in.
    const other = await app.inject({
      method: 'POST',
      url: `/api/invites/${code}/join`,
      remoteAddress: '10.22.0.2',
      payload: { firstName: 'Amy', lastName: 'March', phoneNumber: uniquePhone() },
    });
    expect(other.statusCode).toBe(200);
  });

  it('stops one address guessing invite codes', async () => {
    const app = await limitedApp();
    const ip = '10.23.0.1';
    const guess = (i: number) => app.inject({ url: `/api/invites/guess${String(i).padStart(17, '0')}`, remoteAddress: ip });
    const codes: number[] = [];
    for (let i = 0; i <= PER_IP; i++) codes.push((await guess(i)).statusCode);
    // A guess carries no phone number, so it counts against the address twice over: the lower limit applies.
    const allowed = Math.min(PER_IP, PER_ACCOUNT);
    expect(codes).toEqual([...Array<number>(allowed).fill(404), ...Array<number>(PER_IP + 1 - allowed).fill(429)]);
    expect((await guess(99)).json().message).toMatch(TOO_MANY);
  });
});

describe('sign-in', () => {
  it('counts one account however its email is written', async () => {
    const app = await limitedApp();
    const spellings = ['target@example.com', 'TARGET@example.com', ' target@example.com ', 'Target@Example.Com'];
    const codes: number[] = [];
    for (const email of spellings) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '10.24.0.1',
        payload: { email, password: 'wrong password' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });
});
