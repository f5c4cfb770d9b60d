import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { createPacer, reserveSlots } from '../../src/outbox/pacer';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

// Pacing kept in the database (decision 0017): the slot arithmetic of one `sender_paces` row, and
// the pacer that hands the slots to the texts of a process. PGlite, or PostgreSQL with TEST_DATABASE_URL.
let testDb: TestDatabase;
const db = () => testDb.database.db;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.drop();
});

let senderCount = 0;
const newSender = () => `+1500555${String(++senderCount).padStart(4, '0')}`;

/** Waits `count` texts of `sender` side by side; answers when each one's wait ended, in the order they asked. */
function waitAll(pacer: ReturnType<typeof createPacer>, sender: string, count: number, signal?: AbortSignal): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => pacer.wait(sender, signal).then(() => performance.now())));
}

describe('reserveSlots: the slot arithmetic of a sender', () => {
  it('hands out a sender’s slots one interval apart, none before it was asked for, none left idle while texts wait', async () => {
    const ask = fc.record({
      sender: fc.integer({ min: 0, max: 2 }),
      afterMs: fc.integer({ min: 0, max: 3000 }),
      count: fc.integer({ min: 1, max: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0.5, 1, 3, 7, 50, 100, 250), fc.array(ask, { minLength: 1, maxLength: 25 }), async (rate, asks) => {
        const interval = 1000 / rate;
        const names = [newSender(), newSender(), newSender()];
        /** Every slot handed out, per sender, in the order reserved. */
        const slots = new Map<string, number[]>();
        let at = Date.parse('2026-09-10T09:00:00Z');
        for (const { sender: index, afterMs, count } of asks) {
          at += afterMs;
          const sender = names[index] ?? '';
          const waitMs = await reserveSlots(db(), { sender, count, ratePerSecond: rate, at: new Date(at) });
          const first = at + waitMs;
          const earlier = slots.get(sender) ?? [];
          const freeFrom = earlier.length > 0 ? (earlier.at(-1) ?? 0) + interval : -Infinity;
          // Never before it was asked for; right after the sender's last slot while that is ahead
          // (no idle slot); at once when the sender has been idle (no burst saved up).
          expect(first).toBeGreaterThanOrEqual(at);
          expect(Math.abs(first - Math.max(at, freeFrom))).toBeLessThan(0.05);
          slots.set(sender, [...earlier, ...Array.from({ length: count }, (_, i) => first + i * interval)]);
        }
        // However the asks interleave, one sender's slots are at least an interval apart (to the
        // microsecond the database keeps).
        for (const list of slots.values()) {
          for (let i = 1; i < list.length; i++) expect((list[i] ?? 0) - (list[i - 1] ?? 0)).toBeGreaterThan(interval - 0.01);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('createPacer', () => {
  it('two processes’ pacers on one database space one sender’s texts an interval apart', async () => {
    const rate = 20;
    const sender = newSender();
    const [a, b] = [createPacer(db(), rate), createPacer(db(), rate)];
    const started = performance.now();
    const [fromA, fromB] = await Promise.all([waitAll(a, sender, 15), waitAll(b, sender, 15)]);
    const times = [...fromA, ...fromB].sort((x, y) => x - y);
    // 30 texts at 20 a second: the (i+1)th text goes no sooner than i intervals of 50 ms after the
    // start, whichever process sends it. (A timer fires late, never early: a text held up by a busy
    // machine may bunch with the next one, but never runs ahead of its slot.)
    times.forEach((t, i) => expect(t - started).toBeGreaterThanOrEqual(i * 50 - 1));
    // And the slots leave no gap: the last goes about when the 30th slot comes.
    expect((times.at(-1) ?? 0) - started).toBeLessThan(29 * 50 + 500);
  });

  it('keeps senders apart: a sender with texts waiting does not hold another back', async () => {
    const pacer = createPacer(db(), 2);
    const busy = newSender();
    const queued = waitAll(pacer, busy, 4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = performance.now();
    await pacer.wait(newSender());
    expect(performance.now() - asked).toBeLessThan(400);
    await queued;
  });

  it('ends a wait at once when the process stops; the sender’s later texts still keep the pace', async () => {
    const pacer = createPacer(db(), 1);
    const sender = newSender();
    await pacer.wait(sender);
    const stopping = new AbortController();
    const asked = performance.now();
    const waits = waitAll(pacer, sender, 3, stopping.signal);
    setTimeout(() => stopping.abort(), 50);
    await waits;
    expect(performance.now() - asked).toBeLessThan(500);
    // Another process (or this one, started again) gets the next slot after the slots reserved:
    // it never goes faster than the rate.
    const next = createPacer(db(), 1);
    const again = performance.now();
    await next.wait(sender);
    expect(performance.now() - again).toBeGreaterThan(500);
  });

  it('at rate 0 (pacing off) lets every text go at once without asking the database', async () => {
    const noDatabase = new Proxy(
      {},
      {
        get: () => {
          throw new Error('rate 0 must not query');
        },
      },
    ) as Db;
    const pacer = createPacer(noDatabase, 0);
    for (let i = 0; i < 1000; i++) await pacer.wait('+15005550006');
  });

  it('fails the waiting texts when the database cannot reserve their slots', async () => {
    const down = { execute: () => Promise.reject(new Error('Connection terminated unexpectedly')) } as unknown as Db;
    const pacer = createPacer(down, 5);
    await expect(pacer.wait('+15005550006')).rejects.toThrow('Connection terminated unexpectedly');
  });
});
