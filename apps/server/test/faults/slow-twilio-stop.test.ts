import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle, startMessageWorker } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { createPacer } from '../../src/outbox/pacer';
import { SEND_ABORT_AFTER_STOP_MS, SEND_TIMEOUT_MS } from '../../src/messaging/provider';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_DATABASE_URL } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';
import { startServer, stopAllServers } from '../helpers/server-process';
import { faultDatabase, type FaultDatabase } from './helpers/fault-database';
import { until } from './helpers/wait';

/**
 * docs/reliability.md, "Stopping": with Twilio slow to answer, a send already handed to it would
 * be awaited for SEND_TIMEOUT_MS (30 s), past the 10 s a stop may take (then exit code 1). A few
 * seconds into the stop the sends still unanswered are aborted; their texts go back to the outbox,
 * due at once, the attempt not counted, and go out once, later. The fake Twilio here takes a text
 * only when it answers, as a Twilio that never got to it would.
 */
const STALL_MS = 60_000;

describe('a stop while Twilio is slow to answer', () => {
  let fake: FakeTwilio;
  let t: TestContext;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await createTestApp(twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('the worker aborts the unanswered sends a few seconds in, gives their texts back, and the next worker sends each once', async () => {
    expect(SEND_ABORT_AFTER_STOP_MS).toBeLessThan(5000);
    expect(SEND_TIMEOUT_MS).toBeGreaterThan(10_000);
    const db = t.testDb.database.db;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const person = await createPerson(db);
      const id = await enqueueText(db, { kind: 'group_message', userId: person.id, body: `Slow ${i}`, idempotencyKey: `slow-stop:${i}` });
      if (id !== null) ids.push(id);
    }
    fake.stall(STALL_MS);
    const errors: unknown[] = [];
    const worker = startMessageWorker(t.app.ctx, { onError: (e) => errors.push(e) });
    await until(() => fake.stalled() === ids.length, 'every send to be waiting for Twilio');
    const started = performance.now();
    await worker.stop();
    const stopMs = performance.now() - started;

    expect(errors).toEqual([]);
    expect(stopMs).toBeGreaterThanOrEqual(SEND_ABORT_AFTER_STOP_MS - 50);
    expect(stopMs).toBeLessThan(SEND_ABORT_AFTER_STOP_MS + 3000);
    await until(() => fake.stalled() === 0, 'the aborted requests to be closed');
    const rows = await db.select().from(messages).where(inArray(messages.id, ids));
    expect(rows.map((m) => [m.status, m.attempts, m.nextAttemptAt, m.error])).toEqual(ids.map(() => ['queued', 0, null, null]));
    expect(fake.attempts).toHaveLength(0);

    fake.stall(0);
    await sweepUntilIdle(t.app.ctx, { pacers: { texts: createPacer(t.app.ctx.db, 0) } });
    const after = await db.select().from(messages).where(inArray(messages.id, ids));
    expect(after.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    const to = fake.sent.map((s) => String(s.params.To));
    expect(to).toHaveLength(ids.length);
    expect(new Set(to).size).toBe(ids.length);
  });
});

const KIND = TEST_DATABASE_URL ? 'postgres' : 'pglite';

describe(`SIGTERM while Twilio is slow to answer (${KIND})`, () => {
  let fake: FakeTwilio;
  let target: FaultDatabase;
  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeTwilio(), faultDatabase(KIND)]);
  });
  afterAll(async () => {
    await stopAllServers();
    await fake?.close();
    await target?.cleanup();
  });

  it('exits with code 0 within 10 s, and the next process sends every text once', { timeout: 150_000 }, async () => {
    const phones = await target.use(async (db) => {
      const list: string[] = [];
      for (let i = 0; i < 6; i++) {
        const person = await createPerson(db);
        await enqueueText(db, { kind: 'group_message', userId: person.id, body: `Slow stop ${i}`, idempotencyKey: `slow-sigterm:${i}` });
        list.push(person.phoneNumber);
      }
      return list;
    });
    fake.stall(STALL_MS);
    const env = { ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }), ...target.env };
    const a = await startServer(env);
    await until(() => fake.stalled() === phones.length, 'every send to be waiting for Twilio', 60_000);
    const signalledAt = performance.now();
    a.child.kill('SIGTERM');
    const exit = await a.exited;
    const exitMs = performance.now() - signalledAt;
    expect(exit, a.output()).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(10_000);
    expect(fake.attempts).toHaveLength(0);

    fake.stall(0);
    const b = await startServer(env);
    await until(() => fake.sent.length >= phones.length, 'the texts to go out', 60_000);
    await b.stop(5000);
    const to = fake.sent.map((s) => String(s.params.To)).sort();
    expect(to).toEqual([...phones].sort());
    console.log(
      `[faults] SIGTERM with ${phones.length} sends unanswered by Twilio: exit 0 in ${Math.round(exitMs)} ms; the next process sent each once`,
    );
  });
});
