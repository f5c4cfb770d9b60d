import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle, startMessageWorker } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { createPacer } from '../../src/outbox/pacer';
import { createTestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';
import { until } from './helpers/wait';

/**
 * The message worker's part of a graceful stop: a paced batch does not hold the shutdown. Sends
 * under way finish; texts still waiting for their turn go back to the outbox at once (not after
 * their lease), without counting an attempt, and the next worker sends each exactly once.
 */
let fake: FakeTwilio;
let t: TestContext;
beforeAll(async () => {
  fake = await startFakeTwilio({ responseDelayMs: 100 });
  // Two texts a second: the batch of twenty would take ten seconds.
  t = await createTestApp(twilioEnv(fake, { SEND_RATE_PER_SECOND: '2' }));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('stopping the message worker mid-batch', () => {
  it('finishes the sends under way, releases the rest, and the next worker sends each once', async () => {
    const db = t.testDb.database.db;
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const person = await createPerson(db);
      const id = await enqueueText(db, { kind: 'group_message', userId: person.id, body: `Batch ${i}`, idempotencyKey: `stop:${i}` });
      if (id !== null) ids.push(id);
    }
    const errors: unknown[] = [];
    const worker = startMessageWorker(t.app.ctx, { onError: (e) => errors.push(e) });
    await until(() => fake.sent.length >= 2, 'two texts to go out');
    const started = performance.now();
    await worker.stop();
    const stopMs = performance.now() - started;

    const rows = await db.select().from(messages).where(inArray(messages.id, ids));
    const sent = rows.filter((m) => m.status === 'sent');
    const released = rows.filter((m) => m.status === 'queued');
    expect(errors).toEqual([]);
    expect(stopMs).toBeLessThan(1000);
    expect(sent.length + released.length).toBe(ids.length);
    expect(sent.length).toBe(fake.sent.length);
    expect(released.length).toBeGreaterThan(10);
    expect(released.every((m) => m.attempts === 0 && m.nextAttemptAt === null)).toBe(true);

    await sweepUntilIdle(t.app.ctx, { pacers: { texts: createPacer(t.app.ctx.db, 0) } });
    const after = await db.select().from(messages).where(inArray(messages.id, ids));
    expect(after.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    const to = fake.sent.map((s) => String(s.params.To));
    expect(to).toHaveLength(ids.length);
    expect(new Set(to).size).toBe(ids.length);
  });
});
