/**
 * Pacing counts what carriers count (decision 0039): SMS segments, and every text of a sender,
 * replies and broadcasts alike. Sources:
 *
 * - [segments] https://www.twilio.com/docs/glossary/what-sms-character-limit (160 GSM-7
 *   characters in one segment, 153 per segment past it; 70 UCS-2 units, 67 past it)
 * - [throughput] https://help.twilio.com/articles/115002943027 (long code throughput is counted
 *   in message segments per second)
 * - [services] https://www.twilio.com/docs/messaging/services (a Messaging Service sends from the
 *   numbers in its sender pool)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { insertOutbound } from '../../src/messaging/outbox';
import { createPacer } from '../../src/outbox/pacer';
import { smsSegments } from '../../src/messaging/segments';
import { createTestApp, type TestContext } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';

describe('smsSegments counts as carriers do [segments]', () => {
  it('GSM-7: 160 in one, then 153 a segment; extension characters take two', () => {
    expect(smsSegments('a'.repeat(160))).toBe(1);
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('a'.repeat(307))).toBe(3);
    expect(smsSegments('€'.repeat(80))).toBe(1);
    expect(smsSegments('€'.repeat(81))).toBe(2);
  });

  it('one character outside GSM-7 makes it UCS-2: 70 in one, then 67 a segment (an emoji is two units)', () => {
    expect(smsSegments(`${'a'.repeat(69)}…`)).toBe(1);
    expect(smsSegments(`${'a'.repeat(70)}…`)).toBe(2);
    expect(smsSegments('😀'.repeat(35))).toBe(1);
    expect(smsSegments('😀'.repeat(36))).toBe(2);
    expect(smsSegments('ж'.repeat(201))).toBe(3);
  });
});

describe('the pacer spends a slot per segment [throughput]', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('at 10 segments a second, a 3-segment text holds the next text back 300 ms', async () => {
    const pacer = createPacer(testDb.database.db, 10);
    const sender = '+15005559901';
    // Measured from before the first asks, not between the two: a timer is never early, but on a
    // busy machine the first may resolve late while the second resolves on time.
    const asked = performance.now();
    const [, second] = await Promise.all([
      pacer.wait(sender, undefined, 3).then(() => performance.now()),
      pacer.wait(sender, undefined, 1).then(() => performance.now()),
    ]);
    expect(second - asked).toBeGreaterThanOrEqual(290);
  });
});

describe('through the worker and the real twilio SDK', () => {
  let fake: FakeTwilio;
  let t: TestContext;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    // SMS go out through a Messaging Service; replies from the number that was texted (one of its pool).
    const { TWILIO_FROM_NUMBER: _number, ...env } = twilioEnv(fake, {
      SEND_RATE_PER_SECOND: '2',
      TWILIO_MESSAGING_SERVICE_SID: `MG${'a'.repeat(32)}`,
      // No sender number to take the country from.
      SMS_COUNTRIES: 'US',
    });
    t = await createTestApp(env);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  let counter = 0;
  const queue = async (input: { body: string; fromAddress?: string; kind?: 'reply' | 'group_message' }) => {
    const person = await createPerson(t.testDb.database.db);
    await insertOutbound(t.testDb.database.db, {
      channel: 'sms',
      toAddress: person.phoneNumber,
      fromAddress: input.fromAddress ?? '',
      kind: input.kind ?? 'group_message',
      body: input.body,
      idempotencyKey: `pace:${++counter}`,
      userId: person.id,
      loopId: null,
      mediaUrls: [],
    });
    return person.phoneNumber;
  };
  const sentAt = (phone: string) => fake.sent.find((s) => s.params.To === phone)?.at ?? NaN;

  it('a reply from the number and a broadcast from the Messaging Service share one budget [services]', async () => {
    // The SDK's first request in a process loads its modules (hundreds of ms): not what is measured.
    await queue({ body: 'Warm-up' });
    await sweepUntilIdle(t.app.ctx);
    // Past the warm-up's slot: the sender is idle again.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const reply = await queue({ body: 'Thanks!', kind: 'reply', fromAddress: '+15005550006' });
    const broadcast = await queue({ body: 'Picnic moved to Sunday' });
    await sweepUntilIdle(t.app.ctx);
    // 2 a second: 500 ms apart, less how late the first went (its send-time check, a database
    // trip); on two budgets, both at once.
    expect(Math.abs(sentAt(broadcast) - sentAt(reply))).toBeGreaterThanOrEqual(300);
  });

  it('a 3-segment text takes 3 slots: the next text waits 3 intervals [segments] [throughput]', async () => {
    const long = await queue({ body: 'a'.repeat(400) });
    const short = await queue({ body: 'Hello' });
    await sweepUntilIdle(t.app.ctx);
    // 2 segments a second: 1,500 ms after the long one, less how late the first went; counted per
    // text, 500 ms.
    expect(sentAt(short) - sentAt(long)).toBeGreaterThanOrEqual(1200);
  });
});
