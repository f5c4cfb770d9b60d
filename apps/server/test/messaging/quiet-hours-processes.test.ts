import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { MINUTE_MS } from '../../src/lib/clock';
import { enqueueText } from '../../src/messaging/outbox';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { schedulerFixtureEnv, startFixtureProcess, type FixtureProcess } from '../helpers/fixture-process';
import { createLoop, createPerson } from '../helpers/messaging';

/**
 * 47 CFR 64.1200(c)(1): no texts before 8 a.m. or after 9 p.m. at the recipient's location.
 * Group messages queued at 02:00 in New York wait for 08:00 there and then go exactly once,
 * with two server processes sending from one PostgreSQL database, one of them killed during
 * the night and another started in its place (a restart). Counted at the fake Twilio server.
 */
const NIGHT = new Date('2026-11-10T07:00:00Z'); // Tuesday 02:00 EST
const EIGHT_AM = new Date('2026-11-10T13:00:00Z'); // 08:00 EST
const PEOPLE = 12;

describe.skipIf(!TEST_DATABASE_URL)('quiet hours across processes and a restart', () => {
  let testDb: TestDatabase;
  let fake: FakeTwilio;
  let env: Record<string, string>;
  const phones: string[] = [];

  beforeAll(async () => {
    [testDb, fake] = await Promise.all([createTestDatabase(), startFakeTwilio()]);
    env = schedulerFixtureEnv(twilioEnv(fake), testDb.url, 'quiet-hours', { QUIET_HOURS: '21:00-08:00' });
    const db = testDb.database.db;
    const people = [];
    for (let i = 0; i < PEOPLE; i++) people.push(await createPerson(db, { phoneNumber: `+1212555${String(2000 + i)}` }));
    const loop = await createLoop(db, { name: 'Night Shift', memberIds: people.map((p) => p.id) });
    for (const person of people) {
      phones.push(person.phoneNumber);
      await db.transaction((tx) =>
        enqueueText(tx, {
          kind: 'group_message',
          userId: person.id,
          loopId: loop.id,
          body: 'Breakfast at 9',
          idempotencyKey: `night:${person.id}`,
        }),
      );
    }
  });

  afterAll(async () => {
    await fake?.close();
    await testDb?.drop();
  });

  const tickAll = async (processes: FixtureProcess[], at: Date) => {
    const iso = at.toISOString();
    const done = Promise.all(processes.map((p) => p.waitFor(`done ${iso}`)));
    for (const p of processes) p.send(`tick ${iso}`);
    await done;
  };

  it('nothing goes out in the night; at 08:00 local each text goes once', async () => {
    const a = await startFixtureProcess('scheduler-process.ts', env);
    let b = await startFixtureProcess('scheduler-process.ts', env);
    try {
      for (let t = NIGHT.getTime(); t < EIGHT_AM.getTime(); t += 30 * MINUTE_MS) {
        await tickAll([a, b], new Date(t));
        if (t === NIGHT.getTime() + 2 * 60 * MINUTE_MS) {
          // 04:00: one process dies; another starts in its place.
          b.child.kill('SIGKILL');
          await b.stop();
          b = await startFixtureProcess('scheduler-process.ts', env);
        }
      }
      expect(fake.sent).toHaveLength(0);
      const waiting = await testDb.database.db.select().from(messages).where(eq(messages.kind, 'group_message'));
      expect(waiting.map((m) => [m.status, m.notBefore?.toISOString()])).toEqual(
        Array.from({ length: PEOPLE }, () => ['queued', EIGHT_AM.toISOString()]),
      );

      for (let t = EIGHT_AM.getTime(); t <= EIGHT_AM.getTime() + 60 * MINUTE_MS; t += 15 * MINUTE_MS) await tickAll([a, b], new Date(t));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const received = fake.sent.map((s) => String(s.params.To)).sort();
    expect(received).toEqual([...phones].sort());
  });
});
