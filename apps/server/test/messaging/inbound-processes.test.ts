import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, updates } from '../../src/db/schema';
import { ingestInbound } from '../../src/messaging/ingest-inbound';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { startFixtureProcess } from '../helpers/fixture-process';
import { createLoop, createPerson } from '../helpers/messaging';
import { sid, smsParams } from '../helpers/twilio-fixtures';

/**
 * Decision 0016: two server processes on one PostgreSQL database handle inbound texts at the same
 * time, and each sender's texts are still handled one after the other in the order they came
 * (their updates are stored in that order). Needs PostgreSQL; PGlite is one process.
 */
const here = path.dirname(fileURLToPath(import.meta.url));

describe.skipIf(!TEST_DATABASE_URL)('inbound texts across processes', () => {
  let testDb: TestDatabase;
  let fake: FakeTwilio;
  beforeAll(async () => {
    [testDb, fake] = await Promise.all([createTestDatabase(), startFakeTwilio()]);
  });
  afterAll(async () => {
    await fake.close();
    await testDb.drop();
  });

  it("two processes never take one sender's texts out of order", async () => {
    const db = testDb.database.db;
    const people = await Promise.all(Array.from({ length: 3 }, () => createPerson(db)));
    await createLoop(db, { name: 'Three Voices', memberIds: people.map((p) => p.id) });
    // 600 texts, the three senders in turn: more than one claim looks at (500).
    const bySender = new Map<string, number[]>();
    for (let i = 0; i < 600; i++) {
      const person = people[i % 3];
      if (!person) continue;
      const { id } = await ingestInbound(
        db,
        { ...smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: `part ${i}` }), MessageSid: sid('SM') },
        new Date(),
      );
      bySender.set(person.phoneNumber, [...(bySender.get(person.phoneNumber) ?? []), id ?? 0]);
    }
    const env = {
      ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0', INBOUND_CONCURRENCY: '4' }),
      DATABASE_URL: testDb.url ?? '',
      SESSION_SECRET: 'inbound-process-test-secret-0123456789',
      DATA_DIR: path.join(here, '../../.data-test-inbound'),
      LOG_LEVEL: 'silent',
    };
    const workers = await Promise.all([startFixtureProcess('inbound-process.ts', env), startFixtureProcess('inbound-process.ts', env)]);
    try {
      const done = workers.map((w) => w.waitFor('done'));
      for (const w of workers) w.send('go');
      await Promise.all(done);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const ids = [...bySender.values()].flat();
    const handled = await db.select({ status: messages.status }).from(messages).where(inArray(messages.id, ids));
    expect(handled.filter((m) => m.status !== 'processed')).toEqual([]);
    const stored = (
      await db.select({ messageId: updates.messageId }).from(updates).where(inArray(updates.messageId, ids)).orderBy(asc(updates.id))
    ).map((u) => u.messageId);
    for (const own of bySender.values()) expect(stored.filter((id) => id !== null && own.includes(id))).toEqual(own);
  });
});
