import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { claimInbound, takeInbound } from '../../src/messaging/claim-messages';
import { claimTexts } from '../../src/outbox/texts/claim-texts';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';

// A claim takes at most its limit (decision 0010). On a fresh PostgreSQL database, `id in (select
// ... limit 10 for update skip locked)` took all 150 due rows: the planner ran the subquery again
// during the update, each run skipping the rows already taken. One process then held the whole
// outbox and a second found nothing to send (seen in test/messaging/pacing-processes.test.ts).
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.drop();
});

const due = (direction: 'inbound' | 'outbound', count: number) =>
  Array.from({ length: count }, (_, i) => ({
    direction,
    channel: 'sms' as const,
    kind: direction === 'inbound' ? 'inbound' : 'group_message',
    toAddress: `+1555${direction === 'inbound' ? 1 : 2}00${String(i).padStart(4, '0')}`,
    fromAddress: '+15005550006',
    status: direction === 'inbound' ? 'received' : 'queued',
  }));

describe('claiming due texts', () => {
  it('takes no more rows than its limit, in id order, and the next claim takes the next ones', async () => {
    const db = testDb.database.db;
    await db.insert(messages).values([...due('outbound', 150), ...due('inbound', 60)]);
    const now = new Date();
    const lease = { now, leaseUntil: new Date(now.getTime() + 60_000) };
    const first = await claimTexts(db, { ...lease, limit: 10 });
    expect(first).toHaveLength(10);
    const second = await claimTexts(db, { ...lease, limit: 50 });
    expect(second).toHaveLength(50);
    expect(Math.max(...first.map((r) => r.id))).toBeLessThan(Math.min(...second.map((r) => r.id)));
    expect(await claimInbound(db, { ...lease, limit: 25 })).toHaveLength(25);
  });

  // Two connections at once: PGlite has one session.
  it.runIf(TEST_DATABASE_URL)(
    "inbound by sender: a claim takes no more than its limit, and a batch taken in a transaction is no other claim's",
    async () => {
      const db = testDb.database.db;
      await db.delete(messages);
      // 60 senders with one text each.
      const texts = due('inbound', 60).map((row, i) => ({ ...row, fromAddress: `+1555300${String(i).padStart(4, '0')}` }));
      await db.insert(messages).values(texts);
      const now = new Date();
      const lease = { now, leaseUntil: new Date(now.getTime() + 60_000) };
      const claimed = await claimInbound(db, { ...lease, limit: 25 });
      expect(claimed).toHaveLength(25);
      let meanwhile: number[] = [];
      const taken = await db.transaction(async (tx) => {
        const rows = await takeInbound(tx, { now, limit: 20 });
        // Another connection's claim while this transaction holds its senders.
        meanwhile = (await claimInbound(db, { ...lease, limit: 100 })).map((r) => r.id);
        return rows.map((r) => r.id);
      });
      expect(taken).toHaveLength(20);
      expect(meanwhile).toHaveLength(15);
      expect(new Set([...claimed.map((r) => r.id), ...taken, ...meanwhile]).size).toBe(60);
    },
  );
});
