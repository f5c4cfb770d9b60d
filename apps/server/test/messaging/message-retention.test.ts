import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, updates } from '../../src/db/schema';
import { DAY_MS } from '../../src/lib/clock';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { createTestApp, type TestContext } from '../helpers/app';
import { insertUpdate } from '../helpers/loops';
import { createLoop, createPerson, testClock } from '../helpers/messaging';

/**
 * Storage limitation, GDPR Art. 5(1)(e): personal data "kept in a form which permits
 * identification of data subjects for no longer than is necessary". Texts and e-mails in and out
 * are kept MESSAGE_RETENTION_DAYS (decision 0058); the scheduler's minute tick deletes older ones.
 */
const clock = testClock(new Date('2026-11-20T12:00:00Z'));
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_RETENTION_DAYS: '30' }, { clock });
});
afterAll(() => t.close());
const db = () => t.testDb.database.db;

describe('texts and e-mails are kept MESSAGE_RETENTION_DAYS, then deleted by the scheduler', () => {
  it('deletes raw inbound texts, sent texts and e-mail rows past 30 days; keeps newer ones, unfinished ones and the updates', async () => {
    const person = await createPerson(db(), { phoneNumber: '+12125550142' });
    const loop = await createLoop(db(), { name: 'Kept', memberIds: [person.id] });
    const daysAgo = (days: number) => new Date(clock().getTime() - days * DAY_MS);
    const row = (key: string, fields: Partial<typeof messages.$inferInsert>) => ({
      direction: 'outbound' as const,
      channel: 'sms' as const,
      kind: 'reminder',
      toAddress: person.phoneNumber,
      fromAddress: '+15005550006',
      body: `text ${key}`,
      status: 'sent',
      idempotencyKey: key,
      userId: person.id,
      loopId: loop.id,
      ...fields,
    });
    const inserted = await db()
      .insert(messages)
      .values([
        row('old-inbound', {
          direction: 'inbound',
          kind: 'inbound',
          toAddress: '+15005550006',
          fromAddress: person.phoneNumber,
          status: 'processed',
          raw: { Body: 'Our trip to the lake', From: person.phoneNumber },
          createdAt: daysAgo(31),
        }),
        row('old-sent', { createdAt: daysAgo(31) }),
        row('old-email', {
          channel: 'email',
          kind: 'newsletter',
          toAddress: 'ada@example.com',
          status: 'delivered',
          createdAt: daysAgo(45),
        }),
        row('old-failed', { status: 'failed', error: 'Twilio error 30003', createdAt: daysAgo(400) }),
        row('old-but-queued', { status: 'queued', createdAt: daysAgo(31) }),
        row('new-sent', { createdAt: daysAgo(29) }),
      ])
      .returning({ id: messages.id, key: messages.idempotencyKey });
    const inbound = inserted.find((m) => m.key === 'old-inbound');
    const update = await insertUpdate(db(), loop.id, person.id, 'Our trip to the lake');
    await db().update(updates).set({ messageId: inbound?.id }).where(eq(updates.id, update.id));

    const result = await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' });
    expect(result.deletedMessages).toBe(4);
    const left = await db()
      .select({ key: messages.idempotencyKey })
      .from(messages)
      .where(
        inArray(
          messages.id,
          inserted.map((m) => m.id),
        ),
      );
    expect(left.map((m) => m.key).sort()).toEqual(['new-sent', 'old-but-queued']);
    // The update made from the deleted inbound text keeps its words; only the link goes.
    expect((await db().select().from(updates).where(eq(updates.id, update.id)))[0]).toMatchObject({
      content: 'Our trip to the lake',
      messageId: null,
    });

    // The next day the 29-day-old text is 30 days old: still kept until it is older than that.
    clock.set(new Date(clock().getTime() + DAY_MS));
    expect((await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' })).deletedMessages).toBe(0);
    clock.set(new Date(clock().getTime() + DAY_MS));
    expect((await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' })).deletedMessages).toBe(1);
  });

  it('the setting is a whole number of days, 180 by default', async () => {
    const { loadConfig } = await import('../../src/config');
    expect(loadConfig({}).MESSAGE_RETENTION_DAYS).toBe(180);
    expect(() => loadConfig({ MESSAGE_RETENTION_DAYS: '0' })).toThrow(/MESSAGE_RETENTION_DAYS must be at least 1/);
  });
});
