import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { createTestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';

const TOKEN = 'metrics-token-0123456789';
let t: TestContext;
let fake: FakeTwilio;
const db = () => t.testDb.database.db;

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake, { METRICS_TOKEN: TOKEN }));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function scrape(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  // Prometheus's text exposition format, version 0.0.4.
  expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
  return res.body;
}

/** The value of one series, e.g. value(text, 'loop_outbox_due') or with labels 'loop_texts{direction="outbound",...}'. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics: who may read it', () => {
  it('is off without METRICS_TOKEN, and says how to turn it on', async () => {
    const off = await t.rebuild({ METRICS_TOKEN: '' });
    const res = await off.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Metrics are off: set METRICS_TOKEN on the server to turn them on.' });
  });

  it('asks for the Bearer token, and refuses a wrong one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer ']) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toEqual({ message: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.' });
    }
  });
});

describe('GET /metrics: what it says', () => {
  it('counts texts by direction, channel and status, the outbox and the inbound backlog, from the database', async () => {
    const before = await scrape();
    expect(value(before, 'loop_outbox_due')).toBe(0);
    expect(value(before, 'loop_outbox_oldest_due_age_seconds')).toBe(0);

    const people = await Promise.all([1, 2, 3].map(() => createPerson(db())));
    const ids: number[] = [];
    for (const [index, person] of people.entries()) {
      const id = await db().transaction((tx) =>
        enqueueText(tx, {
          kind: 'reminder',
          userId: person.id,
          body: 'Time to share your news!',
          idempotencyKey: `metrics:${index}:${person.id}`,
        }),
      );
      ids.push(id as number);
    }
    // One text has been due for 90 s (a retry whose time came); one waits for a retry in an hour.
    await db()
      .update(messages)
      .set({ nextAttemptAt: sql`now() - interval '90 seconds'` })
      .where(eq(messages.id, ids[0] as number));
    await db()
      .update(messages)
      .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
      .where(eq(messages.id, ids[2] as number));
    await db()
      .insert(messages)
      .values({
        direction: 'inbound',
        channel: 'sms',
        kind: 'inbound',
        toAddress: '+15005550006',
        fromAddress: people[0]?.phoneNumber ?? '',
        body: 'hello',
        status: 'received',
      });

    const queued = await scrape();
    expect(value(queued, 'loop_outbox_depth')).toBe(3);
    expect(value(queued, 'loop_outbox_due')).toBe(2);
    const age = value(queued, 'loop_outbox_oldest_due_age_seconds') ?? 0;
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(300);
    expect(value(queued, 'loop_inbound_backlog')).toBe(1);
    expect(value(queued, 'loop_texts{direction="outbound",channel="sms",status="queued"}')).toBe(3);
    expect(value(queued, 'loop_texts{direction="inbound",channel="sms",status="received"}')).toBe(1);

    // Twilio refuses one number for good (21211, invalid number) and takes the other.
    const errorsBefore = value(queued, 'loop_send_errors_total{code="21211"}') ?? 0;
    fake.failNext({ status: 400, code: 21211, message: "The 'To' number is not a valid phone number." });
    await db().delete(messages).where(eq(messages.direction, 'inbound'));
    await sweepUntilIdle(t.app.ctx);
    const sent = await scrape();
    expect(value(sent, 'loop_texts{direction="outbound",channel="sms",status="sent"}')).toBe(1);
    expect(value(sent, 'loop_texts{direction="outbound",channel="sms",status="failed"}')).toBe(1);
    expect(value(sent, 'loop_texts{direction="outbound",channel="sms",status="queued"}')).toBe(1);
    expect(value(sent, 'loop_texts{direction="inbound",channel="sms",status="received"}')).toBeUndefined();
    expect(value(sent, 'loop_send_errors_total{code="21211"}')).toBe(errorsBefore + 1);
    expect(value(sent, 'loop_outbox_depth')).toBe(1);
    expect(value(sent, 'loop_outbox_due')).toBe(0);
    expect(value(sent, 'loop_inbound_backlog')).toBe(0);
  });

  it('times HTTP requests by route pattern, with one label for requests no route matched', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing/qzxwv-first' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing/qzxwv-second' });
    const text = await scrape();
    expect(value(text, 'loop_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(text, 'loop_http_request_duration_seconds_count{method="GET",route="(no route)",status="404"}')).toBeGreaterThanOrEqual(2);
    // A path no route matched never becomes a label (letters, so no metric value can contain them by chance).
    expect(text).not.toContain('qzxwv');
    // Node's own process metrics come along.
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});
