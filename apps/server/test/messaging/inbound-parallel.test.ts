import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, updates } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import type * as ApplyOutcome from '../../src/services/inbound/apply-outcome/apply-outcome';
import type * as HandleInbound from '../../src/services/inbound/handle-inbound';
import { ingestInbound } from '../../src/messaging/ingest-inbound';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_DATABASE_URL } from '../helpers/database';
import { createLoop, createPerson } from '../helpers/messaging';
import { sid, smsParams } from '../helpers/twilio-fixtures';

/**
 * Watches the worker handle texts (decision 0016): the real code runs, and this notes when each
 * text starts and ends, stored with its batch (applyOutcomes) or alone (handleInbound), so the
 * tests can see which texts were handled at the same time.
 */
const watch = vi.hoisted(() => {
  const state = {
    inFlight: new Map<string, number>(),
    most: 0,
    mostPerSender: 0,
    /** handleInbound calls at once, at most. */
    mostAlone: 0,
    alone: 0,
    /** The senders of each batch stored together. */
    batches: [] as string[][],
    started: new Map<string, number[]>(),
    /** The next batch fails after storing its texts (its transaction then rolls back). */
    failNext: false,
    /** Runs as each text starts alone, before it is handled. */
    onAlone: undefined as (() => Promise<void>) | undefined,
  };
  const track = async <T>(rows: { id: number; fromAddress: string }[], work: () => Promise<T>): Promise<T> => {
    const senders = [...new Set(rows.map((row) => row.fromAddress))];
    for (const sender of senders) {
      const now = (state.inFlight.get(sender) ?? 0) + 1;
      state.inFlight.set(sender, now);
      state.mostPerSender = Math.max(state.mostPerSender, now);
    }
    for (const row of rows) state.started.set(row.fromAddress, [...(state.started.get(row.fromAddress) ?? []), row.id]);
    state.most = Math.max(
      state.most,
      [...state.inFlight.values()].reduce((a, b) => a + b, 0),
    );
    try {
      return await work();
    } finally {
      for (const sender of senders) state.inFlight.set(sender, (state.inFlight.get(sender) ?? 1) - 1);
    }
  };
  return { state, track };
});
vi.mock('../../src/services/inbound/handle-inbound', async (importOriginal) => {
  const original = await importOriginal<typeof HandleInbound>();
  return {
    ...original,
    handleInbound: async (...args: Parameters<typeof original.handleInbound>) => {
      watch.state.alone += 1;
      watch.state.mostAlone = Math.max(watch.state.mostAlone, watch.state.alone);
      await watch.state.onAlone?.();
      try {
        return await watch.track([args[1]], () => original.handleInbound(...args));
      } finally {
        watch.state.alone -= 1;
      }
    },
  };
});
vi.mock('../../src/services/inbound/apply-outcome/apply-outcome', async (importOriginal) => {
  const original = await importOriginal<typeof ApplyOutcome>();
  return {
    ...original,
    applyOutcomes: async (...args: Parameters<typeof original.applyOutcomes>) => {
      const rows = args[1].map((text) => text.record.message.row);
      if (rows.length > 0) watch.state.batches.push([...new Set(rows.map((r) => r.fromAddress))]);
      return watch.track(rows, async () => {
        await original.applyOutcomes(...args);
        if (watch.state.failNext) {
          watch.state.failNext = false;
          throw new Error('the batch failed');
        }
      });
    },
  };
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ SEND_RATE_PER_SECOND: '0', INBOUND_CONCURRENCY: '4' });
});
afterAll(() => t.close());
beforeEach(() => {
  Object.assign(watch.state, { most: 0, mostPerSender: 0, mostAlone: 0, alone: 0, batches: [] });
  watch.state.inFlight.clear();
  watch.state.started.clear();
});

const db = () => t.testDb.database.db;

/** Every text handled, and in what order each sender's updates were stored (their ids follow the order). */
async function outcome(ids: number[]) {
  const rows = await db()
    .select({ id: messages.id, status: messages.status, error: messages.error })
    .from(messages)
    .where(inArray(messages.id, ids));
  const made = await db()
    .select({ id: updates.id, messageId: updates.messageId })
    .from(updates)
    .where(inArray(updates.messageId, ids))
    .orderBy(updates.id);
  return { rows, storedInOrder: made.map((u) => u.messageId ?? 0) };
}

describe('inbound texts side by side (decision 0016)', () => {
  it("handles many senders at once, each sender's texts in the order they came, stored together or alone", async () => {
    await fc.assert(
      // Who sends each text, and whether it is a keyword (LOOPS: handled alone, no update) or news (stored with its batch).
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.boolean()), { minLength: 10, maxLength: 40 }),
        async (order) => {
          watch.state.inFlight.clear();
          watch.state.started.clear();
          const people = await Promise.all(Array.from({ length: 8 }, () => createPerson(db())));
          await createLoop(db(), { name: `Everyone ${sid('')}`, memberIds: people.map((p) => p.id) });
          // The senders' texts interleaved as the property says; each sender numbers its own.
          const ids: number[] = [];
          const texts = new Map<number, number[]>();
          const news: number[] = [];
          for (const [who, keyword] of order) {
            const person = people[who];
            if (!person) continue;
            const body = keyword ? 'LOOPS' : `note ${ids.length}`;
            const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body }), new Date());
            if (id === null) throw new Error('not stored');
            ids.push(id);
            if (!keyword) news.push(id);
            texts.set(who, [...(texts.get(who) ?? []), id]);
          }
          await sweepUntilIdle(t.app.ctx);
          const { rows, storedInOrder } = await outcome(ids);
          expect(rows.every((r) => r.status === 'processed')).toBe(true);
          expect(storedInOrder).toHaveLength(news.length);
          for (const [who, own] of texts) {
            const phone = people[who]?.phoneNumber ?? '';
            // Started in order, and their updates stored in order.
            expect(watch.state.started.get(phone)).toEqual(own);
            expect(storedInOrder.filter((id) => own.includes(id))).toEqual(own.filter((id) => news.includes(id)));
          }
        },
      ),
      { numRuns: 8 },
    );
    expect(watch.state.mostPerSender).toBe(1);
  });

  it('stores the plain texts of many senders together, and handles the others side by side', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createPerson(db())));
    await createLoop(db(), { name: 'Crowd', memberIds: people.map((p) => p.id) });
    const ids: number[] = [];
    // Each sender: news, then LOOPS (a keyword: handled alone), then more news after it.
    for (const body of ['hello', 'LOOPS', 'and more']) {
      for (const person of people) {
        const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body }), new Date());
        ids.push(id ?? 0);
      }
    }
    await sweepUntilIdle(t.app.ctx);
    const { rows, storedInOrder } = await outcome(ids);
    expect(rows.every((r) => r.status === 'processed')).toBe(true);
    // The first texts went in one batch, all twelve senders at once.
    expect(watch.state.batches[0]).toHaveLength(12);
    // The keywords, and the texts after them, one at a time per sender: INBOUND_CONCURRENCY (4) senders at once.
    expect(watch.state.mostAlone).toBeGreaterThan(1);
    expect(watch.state.mostAlone).toBeLessThanOrEqual(4);
    expect(watch.state.mostPerSender).toBe(1);
    for (const person of people) {
      const own = ids.filter((_, i) => i % 12 === people.indexOf(person));
      expect(watch.state.started.get(person.phoneNumber)).toEqual(own);
      // Two updates each (LOOPS makes none), in order.
      expect(storedInOrder.filter((id) => own.includes(id))).toEqual([own[0], own[2]]);
    }
  });

  it("sweepUntilIdle runs the worker's own loop: no more senders leased at once than INBOUND_CONCURRENCY", async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createPerson(db())));
    await createLoop(db(), { name: 'Queue', memberIds: people.map((p) => p.id) });
    for (const person of people)
      await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: 'LOOPS' }), new Date());
    const phones = people.map((p) => p.phoneNumber);
    let mostLeased = 0;
    watch.state.onAlone = async () => {
      const leased = await db()
        .selectDistinct({ from: messages.fromAddress })
        .from(messages)
        .where(and(eq(messages.direction, 'inbound'), eq(messages.status, 'processing'), inArray(messages.fromAddress, phones)));
      mostLeased = Math.max(mostLeased, leased.length);
    };
    try {
      await sweepUntilIdle(t.app.ctx);
    } finally {
      watch.state.onAlone = undefined;
    }
    // Production's takeAndHandle leases a sender only when one of the four is free.
    expect(mostLeased).toBeGreaterThan(0);
    expect(mostLeased).toBeLessThanOrEqual(4);
    expect(watch.state.mostAlone).toBeLessThanOrEqual(4);
  });

  it('a batch that fails is rolled back and handled a text at a time, each text once', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => createPerson(db())));
    const loop = await createLoop(db(), { name: 'Second Try', memberIds: people.map((p) => p.id) });
    const ids: number[] = [];
    for (const round of [1, 2]) {
      for (const person of people) {
        const { id } = await ingestInbound(
          db(),
          smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: `news ${round}` }),
          new Date(),
        );
        ids.push(id ?? 0);
      }
    }
    watch.state.failNext = true;
    const failures: unknown[] = [];
    await sweepUntilIdle(t.app.ctx, { onBatchError: (error) => failures.push(error) });
    expect(failures).toEqual([new Error('the batch failed')]);
    const { rows, storedInOrder } = await outcome(ids);
    expect(rows.filter((r) => r.status !== 'processed' || r.error !== null)).toEqual([]);
    expect(storedInOrder).toHaveLength(ids.length);
    // Each text went through the batch that failed, then alone; each sender's in order.
    for (const person of people) {
      const own = ids.filter((_, i) => i % 5 === people.indexOf(person));
      expect(watch.state.started.get(person.phoneNumber)).toEqual([...own, ...own]);
      expect(storedInOrder.filter((id) => own.includes(id))).toEqual(own);
    }
    expect(watch.state.mostAlone).toBeGreaterThan(1);
    const replies = await db()
      .select()
      .from(messages)
      .where(
        inArray(
          messages.idempotencyKey,
          ids.map((id) => `reply:${id}`),
        ),
      );
    expect(replies).toHaveLength(ids.length);
    expect(await db().select().from(updates).where(eq(updates.loopId, loop.id))).toHaveLength(ids.length);
  });

  it('two workers on one database never hold one sender at once, and keep the order', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Long Story', memberIds: [person.id] });
    const ids: number[] = [];
    // More than one claim looks at (500), so each worker finds texts of this sender.
    for (let i = 0; i < 520; i++) {
      const { id } = await ingestInbound(
        db(),
        { ...smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: `part ${i}` }), MessageSid: sid('SM') },
        new Date(),
      );
      ids.push(id ?? 0);
    }
    const other = await t.rebuild({ INBOUND_CONCURRENCY: '4' });
    await Promise.all([sweepUntilIdle(t.app.ctx), sweepUntilIdle(other.ctx), sweepUntilIdle(t.app.ctx)]);
    const { rows, storedInOrder } = await outcome(ids);
    expect(rows.filter((r) => r.status !== 'processed')).toEqual([]);
    expect(storedInOrder).toEqual(ids);
    expect(watch.state.started.get(person.phoneNumber)).toEqual(ids);
    expect(watch.state.mostPerSender).toBe(1);
    const stored = await db().select().from(updates).where(eq(updates.loopId, loop.id));
    expect(stored).toHaveLength(520);
  });

  // PGlite runs one transaction at a time; row locks meet only on PostgreSQL.
  it.runIf(TEST_DATABASE_URL)("texts to the same Loops, named in either order, never deadlock on the Loops' counts", async () => {
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
    await Promise.all([sweepUntilIdle(t.app.ctx), sweepUntilIdle(other.ctx)]);
    const { rows } = await outcome(ids);
    // A deadlock fails one of the two transactions (40P01): its text would wait for a retry, with the error noted.
    expect(rows.filter((r) => r.status !== 'processed' || r.error !== null)).toEqual([]);
    for (const loop of [north, south]) {
      const made = await db()
        .select()
        .from(updates)
        .where(and(eq(updates.loopId, loop.id), inArray(updates.messageId, ids)));
      expect(made).toHaveLength(ids.length);
    }
  });
});
