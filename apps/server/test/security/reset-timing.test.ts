import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { messages, phoneCodes, users } from '../../src/db/schema';
import { PHONE_CODE } from '../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { testClock } from '../helpers/messaging';

/**
 * "Forgot password?" answers take as long for an unknown account as for a known one (decision
 * 0027): both run the same statements, the unknown one's rolled back. Timings are a bench's job
 * (`npm run bench -- reset-timing` prints both medians); this test checks the work itself, as the
 * database received it: the same statements in the same order, whatever the account's state.
 */
const clock = testClock(new Date('2026-09-01T09:00:00Z'));
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

/** Records the text of every statement the app sends the database (PGlite or a pg.Pool). */
function traceStatements(database: Database): { take: () => string[] } {
  const seen: string[] = [];
  const text = (query: unknown) => (typeof query === 'string' ? query : String((query as { text?: unknown }).text));
  const wrap = <T extends object>(client: T, methods: string[]): T => {
    const target = client as Record<string, unknown>;
    for (const name of methods) {
      const original = target[name] as (...args: unknown[]) => unknown;
      target[name] = (...args: unknown[]) => {
        seen.push(text(args[0]));
        return original.apply(client, args);
      };
    }
    return client;
  };
  if (database.kind === 'pglite') {
    const pglite = database.pglite as unknown as Record<string, unknown>;
    wrap(pglite, ['query', 'exec']);
    const transaction = pglite.transaction as (callback: (tx: object) => unknown) => unknown;
    pglite.transaction = (callback: (tx: object) => unknown) =>
      transaction.call(pglite, (tx: object) => callback(wrap(tx, ['query', 'exec'])));
  } else {
    // Every statement goes through a pooled client (pool.query too), in either of connect's forms.
    const pool = database.pool as unknown as Record<string, unknown>;
    const connect = pool.connect as (...args: unknown[]) => Promise<object> | undefined;
    const wrapped = new WeakSet<object>();
    const once = (client: object | undefined) => {
      if (client && !wrapped.has(client)) wrap(client, ['query']);
      if (client) wrapped.add(client);
      return client;
    };
    pool.connect = (...args: unknown[]) => {
      const callback = args[0];
      if (typeof callback === 'function') {
        return connect.call(pool, (error: unknown, client: object | undefined, done: unknown) => callback(error, once(client), done));
      }
      return connect.call(pool)?.then(once);
    };
  }
  // The one difference allowed: whether the savepoint with the code is kept or rolled back.
  return { take: () => seen.splice(0).map((statement) => statement.replace(/^(release|rollback to) savepoint/, 'end savepoint')) };
}

describe('"Forgot password?" does the same work for known and unknown accounts', () => {
  it("runs the same statements for an account, no account, a text-only member, another browser's waiting code, and a resend too soon", async () => {
    const { account } = await signUp(t.app);
    const waitingFor = await signUp(t.app);
    const tooSoonFor = await signUp(t.app);
    const byPhone = await signUp(t.app);
    const memberPhone = uniquePhone();
    await t.testDb.database.db.insert(users).values({ firstName: 'Text', lastName: 'Only', phoneNumber: memberPhone });
    clock.advance(PHONE_CODE.resendAfterMs);
    // Another browser's reset waits for one account; this browser asked for another one a moment ago.
    await browser(t.app).post('/api/password-reset', { login: waitingFor.account.email });
    const tab = browser(t.app);
    await tab.post('/api/password-reset', { login: tooSoonFor.account.email });

    const trace = traceStatements(t.testDb.database);
    const work = async (login: string, inBrowser = browser(t.app)) => {
      trace.take();
      const res = await inBrowser.post('/api/password-reset', { login });
      expect(res.statusCode).toBe(202);
      return trace.take();
    };
    // Asked by email (the lookup by phone is another statement, whichever the account).
    const known = await work(account.email);
    expect(known.length).toBeGreaterThan(4);
    const others = {
      'no account': await work('nobody-here@example.com'),
      "another browser's code waits": await work(waitingFor.account.email),
      'this browser asked too soon': await work(tooSoonFor.account.email, tab),
    };
    for (const [state, statements] of Object.entries(others)) expect({ state, statements }).toEqual({ state, statements: known });
    // Asked by phone.
    const knownByPhone = await work(byPhone.account.phoneNumber);
    for (const [state, statements] of Object.entries({
      'no account': await work(uniquePhone()),
      'a text-only member': await work(memberPhone),
    })) {
      expect({ state, statements }).toEqual({ state, statements: knownByPhone });
    }

    // The rehearsals kept nothing.
    const db = t.testDb.database.db;
    expect(await db.select().from(phoneCodes).where(like(phoneCodes.phoneNumber, 'rehearsal:%'))).toEqual([]);
    expect(await db.select().from(messages).where(like(messages.toAddress, 'rehearsal:%'))).toEqual([]);
  });
});
