import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/db/schema';
import { claimInbound, claimOutbound } from '../src/messaging/claim-messages';
import { createTestDatabase, type TestDatabase } from './helpers/database';

// A claim takes at most its limit (decision 0010). On a fresh PostgreSQL database, `id in (select
// ... limit 10 for update skip locked)` took all 150 due rows: the planner ran the subquery again
// during the update, each run skipping the rows already taken. One process then held the whole
// outbox and a second found nothing to send (seen in pacing-processes.test.ts).
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
    kind: direction === 'inbound' ? 'inbound' : 'bulk',
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
    const first = await claimOutbound(db, { ...lease, limit: 10 });
    expect(first).toHaveLength(10);
    const second = await claimOutbound(db, { ...lease, limit: 50 });
    expect(second).toHaveLength(50);
    expect(Math.max(...first.map((r) => r.id))).toBeLessThan(Math.min(...second.map((r) => r.id)));
    expect(await claimInbound(db, { ...lease, limit: 25 })).toHaveLength(25);
  });
});
