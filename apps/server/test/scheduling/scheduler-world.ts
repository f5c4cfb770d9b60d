import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { messages, users } from '../../src/db/schema';
import { MINUTE_MS } from '../../src/lib/clock';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { createTestApp, type TestContext } from '../helpers/app';
import { testClock } from '../helpers/messaging';

type Mode = 'send' | 'draft' | 'off';

/**
 * One test app on a clock that starts on a Monday, and the scheduler driven tick by tick, for the
 * scheduler's tests (scheduler.test.ts and the simulated weeks of scheduler-weeks.slow.test.ts).
 * These tests are about the Loop's zone: every phone here says nothing of where its holder is (as
 * a number whose area code spans zones), so each member's reminder follows the Loop's zone.
 * Reminders in each member's own zone: test/messaging/quiet-hours.test.ts.
 */
export function schedulerWorld() {
  const clock = testClock(new Date('2026-03-02T00:00:00Z')); // a Monday
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());
  const db = () => t.testDb.database.db;

  async function tick(mode: Mode = 'send') {
    await db().update(users).set({ phoneTimeZone: '' });
    return runSchedulerTick(t.app.ctx, { now: clock(), mode });
  }

  /** Ticks every `stepMinutes` until `until`, like the minute cron would (nobody signs up meanwhile). */
  async function runUntil(until: Date, stepMinutes = 5, mode: Mode = 'send') {
    await db().update(users).set({ phoneTimeZone: '' });
    while (clock().getTime() < until.getTime()) {
      clock.advance(stepMinutes * MINUTE_MS);
      await runSchedulerTick(t.app.ctx, { now: clock(), mode });
    }
  }

  async function remindersOf(loopId: number) {
    return db()
      .select()
      .from(messages)
      .where(and(eq(messages.kind, 'reminder'), like(messages.idempotencyKey, `reminder:%`), eq(messages.loopId, loopId)))
      .orderBy(messages.id);
  }

  return { clock, app: () => t.app, db, tick, runUntil, remindersOf };
}

export const minuteOf = (key: string | null) => key?.split(':').slice(1, 3).join(':');
