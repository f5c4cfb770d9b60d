import { eq, inArray, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, members, users } from '../../src/db/schema';
import { MINUTE_MS } from '../../src/lib/clock';
import { nextReminderAt } from '../../src/services/schedules/schedule-columns';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { insertUpdate } from '../helpers/loops';
import { createLoop, createPerson } from '../helpers/messaging';
import { schedulerFixtureEnv, startFixtureProcess } from '../helpers/fixture-process';

/**
 * docs/architecture.md#growing-past-one-machine: two server processes on one PostgreSQL database,
 * and a process killed mid-sweep, never send a scheduled text twice or lose one. Counted at the
 * fake Twilio server. Needs a PostgreSQL server (TEST_DATABASE_URL); PGlite is one process.
 */
const START = new Date('2026-09-07T00:00:00Z'); // a Monday
const STEP = 15 * MINUTE_MS;

// Hundreds of ticks in two child processes: on a shared, loaded machine this takes minutes.
describe.skipIf(!TEST_DATABASE_URL)('scheduled texts across processes', { timeout: 300_000 }, () => {
  let testDb: TestDatabase;
  let fake: FakeTwilio;
  let env: Record<string, string>;
  /** Phone -> how many reminders it must get in the simulated week. */
  const expected = new Map<string, number>();

  beforeAll(async () => {
    [testDb, fake] = await Promise.all([createTestDatabase(), startFakeTwilio()]);
    // About the Loops' zones: quiet hours and members' own zones have test/messaging/quiet-hours-processes.test.ts.
    env = schedulerFixtureEnv(twilioEnv(fake), testDb.url, 'scheduler', { QUIET_HOURS: 'off' });
    const db = testDb.database.db;
    const zones = ['America/New_York', 'Europe/Paris', 'Asia/Tokyo', 'UTC'];
    for (let i = 0; i < 12; i++) {
      // Their phones say nothing of their zone (''), so each reminder follows the Loop's.
      const people = [await createPerson(db), await createPerson(db), await createPerson(db)];
      await db
        .update(users)
        .set({ phoneTimeZone: '' })
        .where(
          inArray(
            users.id,
            people.map((p) => p.id),
          ),
        );
      const loop = await createLoop(db, { name: `Loop ${i}`, memberIds: people.map((p) => p.id) });
      const reminderSchedule = [
        { day: 'monday' as const, time: '09:00' },
        { day: i % 2 ? ('thursday' as const) : ('friday' as const), time: `1${i % 10}:${i % 2 ? '15' : '45'}` },
      ];
      const timeZone = zones[i % zones.length] ?? 'UTC';
      const first = nextReminderAt({ reminderSchedule, timeZone }, START);
      await db.update(loops).set({ reminderSchedule, timeZone, nextReminderAt: first }).where(eq(loops.id, loop.id));
      // Every slot strictly after START and at or before START + 7 days is due in the run.
      const slots = countSlots(reminderSchedule, timeZone);
      for (const p of people) expected.set(p.phoneNumber, slots);
    }
  });

  afterAll(async () => {
    await fake?.close();
    await testDb?.drop();
  });

  it('two processes ticking the same simulated week send each reminder exactly once', async () => {
    const [a, b] = await Promise.all([startFixtureProcess('scheduler-process.ts', env), startFixtureProcess('scheduler-process.ts', env)]);
    try {
      for (let t = START.getTime() + STEP; t <= START.getTime() + 7 * 24 * 60 * MINUTE_MS; t += STEP) {
        const iso = new Date(t).toISOString();
        const done = Promise.all([a.waitFor(`done ${iso}`), b.waitFor(`done ${iso}`)]);
        a.send(`tick ${iso}`);
        b.send(`tick ${iso}`);
        await done;
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const received = new Map<string, number>();
    for (const sent of fake.sent) {
      const to = String(sent.params.To);
      received.set(to, (received.get(to) ?? 0) + 1);
    }
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(expected));
    expect(fake.sent.length).toBe([...expected.values()].reduce((s, n) => s + n, 0));
  });

  it('a process killed mid-sweep loses no reminder and sends none twice', async () => {
    const before = fake.sent.length;
    // Next Monday 09:00 UTC: the Loops in UTC and Paris are due by then.
    const iso = '2026-09-14T09:00:00.000Z';
    const db = testDb.database.db;
    const due = await db
      .select({ id: members.id })
      .from(members)
      .innerJoin(loops, eq(loops.id, members.loopId))
      .where(lte(loops.nextReminderAt, new Date(iso)));
    expect(due.length).toBe(18);
    const doomed = await startFixtureProcess('scheduler-process.ts', { ...env, PAUSE_AFTER_CLAIM_MS: '30000' });
    const claimed = doomed.waitFor('claimed');
    doomed.send(`tick ${iso}`);
    await claimed;
    doomed.child.kill('SIGKILL');
    await doomed.stop();
    expect(fake.sent.length).toBe(before);

    const again = await startFixtureProcess('scheduler-process.ts', env);
    try {
      const done = again.waitFor(`done ${iso}`);
      again.send(`tick ${iso}`);
      await done;
      const doneTwice = again.waitFor(`done ${iso}`);
      again.send(`tick ${iso}`);
      await doneTwice;
    } finally {
      await again.stop();
    }
    const newTexts = fake.sent.slice(before).map((s) => String(s.params.To));
    // Six Loops (three in UTC, three in Paris) of three members each: eighteen texts, once each.
    expect(newTexts).toHaveLength(18);
    expect(new Set(newTexts).size).toBe(18);
  });

  it('two processes send the day-before last call once, to the silent members only (decision 0043)', async () => {
    const db = testDb.database.db;
    // Sunday 18:00 UTC: the last call is due from Saturday 18:00. No reminders in these Loops.
    const newsletterAt = new Date('2026-09-13T18:00:00Z');
    const silent = new Set<string>();
    const posted = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const people = [await createPerson(db), await createPerson(db), await createPerson(db)];
      const loop = await createLoop(db, { name: `Last call ${i}`, memberIds: people.map((p) => p.id) });
      await db
        .update(loops)
        .set({ reminderSchedule: [], nextReminderAt: null, nextNewsletterAt: newsletterAt, createdAt: new Date('2026-09-01T00:00:00Z') })
        .where(eq(loops.id, loop.id));
      const [poster, ...others] = people;
      if (!poster) throw new Error('no people');
      await insertUpdate(db, loop.id, poster.id, 'My news', [], new Date('2026-09-12T10:00:00Z'));
      posted.add(poster.phoneNumber);
      for (const p of others) silent.add(p.phoneNumber);
    }
    const before = fake.sent.length;
    const draftEnv = { ...env, FIXTURE_NEWSLETTERS: 'draft' };
    const [a, b] = await Promise.all([
      startFixtureProcess('scheduler-process.ts', draftEnv),
      startFixtureProcess('scheduler-process.ts', draftEnv),
    ]);
    try {
      for (let t = Date.parse('2026-09-12T17:00:00Z'); t < newsletterAt.getTime(); t += 60 * MINUTE_MS) {
        const iso = new Date(t).toISOString();
        const done = Promise.all([a.waitFor(`done ${iso}`), b.waitFor(`done ${iso}`)]);
        a.send(`tick ${iso}`);
        b.send(`tick ${iso}`);
        await done;
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    // The posters own their Loops: they also get the text about the draft (decision 0040), not a last call.
    const mine = fake.sent.slice(before).filter((s) => silent.has(String(s.params.To)) || posted.has(String(s.params.To)));
    const lastCalls = mine.filter((s) => String(s.params.Body).includes('Last call: the "Last call '));
    expect(lastCalls.map((s) => String(s.params.To)).sort()).toEqual([...silent].sort());
  });
});

function countSlots(schedule: { day: 'monday' | 'thursday' | 'friday'; time: string }[], timeZone: string): number {
  let count = 0;
  let at = START;
  const end = START.getTime() + 7 * 24 * 60 * MINUTE_MS;
  for (;;) {
    const next = nextReminderAt({ reminderSchedule: schedule, timeZone }, at);
    if (!next || next.getTime() > end) return count;
    count += 1;
    at = next;
  }
}
