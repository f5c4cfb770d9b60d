import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type Instance } from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingDatabase } from '../../src/db/client';
import { databaseUnavailable } from '../../src/errors';
import { newAccount, uniquePhone } from '../helpers/app';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { cookiesOf, startServer, stopAllServers, type ServerProcess } from '../helpers/server-process';
import { INBOUND_PATH, signedInbound } from './helpers/fault-database';
import { sleep, until, untilHealthy } from './helpers/wait';

/**
 * docs/reliability.md, "PostgreSQL terminates connections": an administrator's
 * pg_terminate_backend, a failover or a restart ends the app's connections with 57P01. A pool
 * client checked out but idle at that moment (inside a transaction, between two statements) has
 * no error listener of pg-pool's (it takes its own off at checkout): unheard, its 'error' event
 * crashed the process. db/client.ts gives every client a listener of its own.
 */
async function terminateAll(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    const result = await admin.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return result.rows.filter((r) => r.ended).length;
  } finally {
    await admin.end();
  }
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL terminates every connection of the app', () => {
  let testDb: TestDatabase;
  let name: string;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    name = new URL(testDb.url ?? '').pathname.slice(1);
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('a transaction whose connection is ended while idle fails with a database error, and nothing crashes', async () => {
    const { db } = testDb.database;
    const outcome = await db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        // The connection is checked out and idle here, as in a transaction awaiting other work.
        expect(await terminateAll(name)).toBeGreaterThanOrEqual(1);
        await sleep(300);
        await tx.execute(sql`select 2`);
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    expect(outcome).not.toBe('committed');
    expect(databaseUnavailable(outcome), String(outcome)).toBe(true);
    // The pool dropped the dead connection: the next query gets a new one.
    await until(() => pingDatabase(db), 'the database to answer again', 10_000);
  });

  describe('a server process under load', () => {
    let fake: FakeTwilio;
    let server: ServerProcess;
    let dataDir: string;
    beforeAll(async () => {
      fake = await startFakeTwilio();
      dataDir = mkdtempSync(path.join(tmpdir(), 'loop-fault-'));
      server = await startServer({ ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }), DATABASE_URL: testDb.url ?? '', DATA_DIR: dataDir });
    });
    afterAll(async () => {
      await stopAllServers();
      await fake?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps answering while every backend of its database is terminated, again and again', { timeout: 120_000 }, async () => {
      // Sign-up texts a code (decision 0013); read it where the fake Twilio received it, then verify.
      let holder = '';
      const post = (pathname: string, body: object) =>
        fetch(`${server.url}${pathname}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: holder },
          body: JSON.stringify(body),
        });
      const account = newAccount();
      const started = await post('/api/register', account);
      expect(started.status).toBe(202);
      // The code works only in the browser that sent the form: its cookie goes with the code.
      holder = cookiesOf(started);
      const codeOf = () => /\b(\d{6})\b/.exec(String(fake.sent.find((m) => m.params.To === account.phoneNumber)?.params.Body ?? ''))?.[1];
      await until(() => codeOf() !== undefined, 'the sign-up code', 15_000);
      const code = codeOf();
      const register = await post('/api/register/verify', { phoneNumber: account.phoneNumber, code });
      expect(register.status).toBe(201);
      const cookie = cookiesOf(register);

      const answers: { at: number; status: number; body: string }[] = [];
      const record = (status: number, body: string) => answers.push({ at: performance.now(), status, body });
      const webhooks = Array.from({ length: 50 }, () => signedInbound(server.url, fake, { from: uniquePhone(), body: 'Busy week here!' }));
      const load: Instance[] = [
        autocannon({
          url: server.url,
          connections: 3,
          duration: 120,
          timeout: 10,
          requests: [{ method: 'GET', path: '/api/health', onResponse: (st, b) => record(st, b) }],
        }),
        autocannon({
          url: server.url,
          connections: 3,
          duration: 120,
          timeout: 10,
          requests: [{ method: 'GET', path: '/api/loops', headers: { cookie }, onResponse: (st, b) => record(st, b) }],
        }),
        // Signed inbound texts: each is a transaction, and the worker turns each into a reply.
        autocannon({
          url: server.url,
          connections: 2,
          duration: 120,
          timeout: 10,
          requests: webhooks.map((w) => ({
            method: 'POST' as const,
            path: INBOUND_PATH,
            headers: w.headers,
            body: w.body,
            onResponse: (st: number, b: string) => record(st, b),
          })),
        }),
      ];
      const errors: string[] = [];
      for (const instance of load) instance.on('reqError', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));

      await sleep(1500);
      const firstAt = performance.now();
      let terminated = 0;
      for (let round = 0; round < 6; round++) {
        terminated += await terminateAll(name);
        await sleep(400);
      }
      const lastAt = performance.now();
      await untilHealthy(server.url);
      const recoveredAt = performance.now();
      await sleep(1500);
      for (const instance of load) instance.stop();
      await Promise.all(load);

      expect(server.child.exitCode, `the server exited:\n${server.output()}`).toBeNull();
      expect(server.output()).not.toContain("Unhandled 'error' event");
      expect(terminated, 'connections were terminated').toBeGreaterThan(6);
      const during = answers.filter((a) => a.at >= firstAt && a.at < recoveredAt);
      expect(during.length, 'requests were answered meanwhile').toBeGreaterThan(0);
      // A request whose connection was ended answers 503 with the message; none gets a 500.
      const other = during.filter((a) => a.status !== 200 && !(a.status === 503 && /database is not reachable/.test(a.body)));
      expect(other, 'only 200s and 503s with the message').toEqual([]);
      const after = answers.filter((a) => a.at >= recoveredAt + 200);
      expect(after.length).toBeGreaterThan(0);
      expect(
        after.filter((a) => a.status !== 200),
        'every request succeeds again',
      ).toEqual([]);
      expect(errors, 'no request timed out or was cut').toEqual([]);

      // The message worker goes on: a text stored now is answered.
      const from = uniquePhone();
      const webhook = signedInbound(server.url, fake, { from, body: 'Still there?' });
      const stored = await fetch(`${server.url}${INBOUND_PATH}`, { method: 'POST', headers: webhook.headers, body: webhook.body });
      expect(stored.status).toBe(200);
      await until(() => fake.sent.some((s) => s.params.To === from), 'the reply to reach Twilio', 30_000);

      const unavailable = during.filter((a) => a.status === 503).length;
      console.log(
        `[faults] every backend terminated 6 times in ${Math.round(lastAt - firstAt)} ms (${terminated} connections ended): ` +
          `${during.length} answers meanwhile (${unavailable} 503 with the message, the rest 200), healthy ${Math.round(recoveredAt - lastAt)} ms after the last, ` +
          `${after.length} answered after, all 200; 0 errors; the process lived`,
      );
    });
  });
});
