import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, updates } from '../src/db/schema';
import { processPending } from '../src/jobs/message-worker';
import type * as ProcessInbound from '../src/messaging/process-inbound';
import { ingestInbound } from '../src/messaging/ingest-inbound';
import { createTestApp, type TestContext } from './helpers/app';
import { TEST_DATABASE_URL } from './helpers/database';
import { createLoop, createPerson } from './helpers/messaging';
import { sid, smsParams } from './helpers/twilio-fixtures';

/**
 * Watches the worker handle texts (decision 0016): the real processInbound runs, and this notes
 * when each text starts and ends, so the tests can see which texts were handled at the same time.
 */
const watch = vi.hoisted(() => ({ inFlight: new Map<string, number>(), most: 0, mostPerSender: 0, started: new Map<string, number[]>() }));
vi.mock('../src/messaging/process-inbound', async (importOriginal) => {
  const original = await importOriginal<typeof ProcessInbound>();
  return {
    ...original,
    processInbound: async (...args: Parameters<typeof original.processInbound>) => {
      const row = args[1];
      const sender = row.fromAddress;
      const now = (watch.inFlight.get(sender) ?? 0) + 1;
      watch.inFlight.set(sender, now);
      watch.mostPerSender = Math.max(watch.mostPerSender, now);
      watch.most = Math.max(watch.most, [...watch.inFlight.values()].reduce((a, b) => a + b, 0));
      watch.started.set(sender, [...(watch.started.get(sender) ?? []), row.id]);
      try {
        return await original.processInbound(...args);
      } finally {
        watch.inFlight.set(sender, (watch.inFlight.get(sender) ?? 1) - 1);
      }
    },
  };
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ SEND_RATE_PER_SECOND: '0', INBOUND_CONCURRENCY: '4' });
});
afterAll(() => t.close());
beforeEach(() => {
  watch.inFlight.clear();
  watch.started.clear();
  watch.most = 0;
  watch.mostPerSender = 0;
});

const db = () => t.testDb.database.db;

/** Every text handled, and in what order each sender's updates were stored (their ids follow the order). */
async function outcome(ids: number[]) {
  const rows = await db().select({ id: messages.id, status: messages.status, error: messages.error }).from(messages).where(inArray(messages.id, ids));
  const made = await db().select({ id: updates.id, messageId: updates.messageId }).from(updates).where(inArray(updates.messageId, ids)).orderBy(updates.id);
  return { rows, storedInOrder: made.map((u) => u.messageId ?? 0) };
}

describe('inbound texts side by side (decision 0016)', () => {
  it('handles many senders at once, each sender one text at a time and in the order they came', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 10, maxLength: 40 }), async (order) => {
        watch.inFlight.clear();
        watch.started.clear();
        const people = await Promise.all(Array.from({ length: 8 }, () => createPerson(db())));
        await createLoop(db(), { name: `Everyone ${sid('')}`, memberIds: people.map((p) => p.id) });
        // The senders' texts interleaved as the property says; each sender numbers its own.
        const ids: number[] = [];
        const texts = new Map<number, number[]>();
        for (const who of order) {
          const person = people[who];
          if (!person) continue;
          const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: `note ${ids.length}` }), new Date());
          if (id === null) throw new Error('not stored');
          ids.push(id);
          texts.set(who, [...(texts.get(who) ?? []), id]);
        }
        await processPending(t.app.ctx);
        const { rows, storedInOrder } = await outcome(ids);
        expect(rows.every((r) => r.status === 'processed')).toBe(true);
        expect(storedInOrder).toHaveLength(ids.length);
        for (const [who, own] of texts) {
          const phone = people[who]?.phoneNumber ?? '';
          // Started in order, and their updates stored in order.
          expect(watch.started.get(phone)).toEqual(own);
          expect(storedInOrder.filter((id) => own.includes(id))).toEqual(own);
        }
      }),
      { numRuns: 8 },
    );
    expect(watch.mostPerSender).toBe(1);
  });

  it('works on several senders at the same time', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createPerson(db())));
    await createLoop(db(), { name: 'Crowd', memberIds: people.map((p) => p.id) });
    const ids: number[] = [];
    for (const person of people) {
      const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: 'hello' }), new Date());
      ids.push(id ?? 0);
    }
    await processPending(t.app.ctx);
    expect((await outcome(ids)).rows.every((r) => r.status === 'processed')).toBe(true);
    // INBOUND_CONCURRENCY is 4 here.
    expect(watch.most).toBeGreaterThan(1);
    expect(watch.most).toBeLessThanOrEqual(4);
  });

  it('two workers on one database never hold one sender at once, and keep the order', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Long Story', memberIds: [person.id] });
    const ids: number[] = [];
    // More than one claim looks at (200), so each worker finds texts of this sender.
    for (let i = 0; i < 260; i++) {
      const { id } = await ingestInbound(db(), { ...smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: `part ${i}` }), MessageSid: sid('SM') }, new Date());
      ids.push(id ?? 0);
    }
    const other = await t.rebuild({ INBOUND_CONCURRENCY: '4' });
    await Promise.all([processPending(t.app.ctx), processPending(other.ctx), processPending(t.app.ctx)]);
    const { rows, storedInOrder } = await outcome(ids);
    expect(rows.filter((r) => r.status !== 'processed')).toEqual([]);
    expect(storedInOrder).toEqual(ids);
    expect(watch.started.get(person.phoneNumber)).toEqual(ids);
    expect(watch.mostPerSender).toBe(1);
    const stored = await db().select().from(updates).where(eq(updates.loopId, loop.id));
    expect(stored).toHaveLength(260);
  });

  // PGlite runs one transaction at a time; row locks meet only on PostgreSQL.
  it.runIf(TEST_DATABASE_URL)('texts to the same Loops, named in either order, never deadlock on the Loops\' counts', async () => {
    const people = await Promise.all(Array.from({ length: 16 }, () => createPerson(db())));
    const memberIds = people.map((p) => p.id);
    const north = await createLoop(db(), { name: 'North', memberIds });
    const south = await createLoop(db(), { name: 'South', memberIds });
    const ids: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [index, person] of people.entries()) {
        // Half name North first, half South first: each update counts on its Loop's row.
        const body = index % 2 === 0 ? `#north #south round ${round}` : `#south #north round ${round}`;
        const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body }), new Date());
        ids.push(id ?? 0);
      }
    }
    const other = await t.rebuild({ INBOUND_CONCURRENCY: '8' });
    await Promise.all([processPending(t.app.ctx), processPending(other.ctx)]);
    const { rows } = await outcome(ids);
    // A deadlock fails one of the two transactions (40P01): its text would wait for a retry, with the error noted.
    expect(rows.filter((r) => r.status !== 'processed' || r.error !== null)).toEqual([]);
    for (const loop of [north, south]) {
      const made = await db().select().from(updates).where(and(eq(updates.loopId, loop.id), inArray(updates.messageId, ids)));
      expect(made).toHaveLength(ids.length);
    }
  });
});
