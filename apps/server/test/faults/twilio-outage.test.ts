import { inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { createTestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson, testClock } from '../helpers/messaging';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

/**
 * docs/reliability.md, "Twilio down": with the default retry settings, texts queued while Twilio
 * cannot be reached wait and go out once it is back, each exactly once. Time is the app's
 * injectable clock, stepped five seconds at a time (the worker polls every second; every retry
 * time of the default schedule is a multiple of five); the outage is real: connections to Twilio
 * (the fake, behind a TCP proxy) are refused.
 */
const STEP_S = 5;
const TEXTS = 20;

let fake: FakeTwilio;
let proxy: TcpProxy;
let t: TestContext;
const clock = testClock();

beforeAll(async () => {
  fake = await startFakeTwilio();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(fake.url).port) });
  const env = twilioEnv(fake, { TWILIO_API_BASE_URL: `http://127.0.0.1:${proxy.port}`, SEND_RATE_PER_SECOND: '0' });
  // The defaults, not a test's shortcut: SEND_RETRY_BASE_SECONDS 30, SEND_MAX_ATTEMPTS 5.
  delete env.SEND_RETRY_BASE_SECONDS;
  t = await createTestApp(env, { clock });
});
afterEach(() => proxy.restore());
afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await fake?.close();
});

async function queueTexts(label: string): Promise<number[]> {
  const db = t.testDb.database.db;
  const ids: number[] = [];
  for (let i = 0; i < TEXTS; i++) {
    const person = await createPerson(db);
    const id = await enqueueText(db, {
      kind: 'group_message',
      userId: person.id,
      body: `${label} ${i}`,
      idempotencyKey: `outage:${label}:${i}`,
    });
    if (id !== null) ids.push(id);
  }
  return ids;
}

/**
 * Runs the worker every STEP_S simulated seconds from now until `untilS` seconds, taking Twilio
 * down at 0 and bringing it back at `outageS`. Returns when each text was sent (seconds from 0).
 */
async function outage(ids: number[], outageS: number, untilS: number) {
  const start = clock().getTime();
  await proxy.cut();
  const sentAt = new Map<number, number>();
  for (let s = 0; s <= untilS; s += STEP_S) {
    clock.set(new Date(start + s * 1000));
    if (s === outageS) await proxy.restore();
    await sweepUntilIdle(t.app.ctx);
    if (s === outageS - STEP_S && outageS < 450) {
      // Still down: every text waits, none has failed.
      const waiting = await rowsOf(ids);
      expect(waiting.every((m) => m.status === 'queued' && m.error?.startsWith('Could not reach Twilio'))).toBe(true);
    }
    if (s >= outageS) {
      for (const m of await rowsOf(ids)) if (m.status === 'sent' && !sentAt.has(m.id)) sentAt.set(m.id, s);
      if (sentAt.size === ids.length) break;
    }
  }
  return sentAt;
}

const rowsOf = (ids: number[]) => t.testDb.database.db.select().from(messages).where(inArray(messages.id, ids));

function timesEach(phones: string[]): number[] {
  return phones.map((phone) => fake.sent.filter((s) => s.params.To === phone).length);
}

describe('Twilio down', () => {
  it('for a minute: every text waits, then goes out once, 90 s after it was due', async () => {
    expect(t.app.ctx.config.SEND_RETRY_BASE_SECONDS).toBe(30);
    expect(t.app.ctx.config.SEND_MAX_ATTEMPTS).toBe(5);
    const ids = await queueTexts('minute');
    const sentAt = await outage(ids, 60, 600);

    const rows = await rowsOf(ids);
    expect(rows.map((m) => m.status)).toEqual(ids.map(() => 'sent'));
    // Tried at 0 s and 30 s (refused), then at 90 s: the third of five attempts.
    expect(new Set(rows.map((m) => m.attempts))).toEqual(new Set([3]));
    expect(new Set(sentAt.values())).toEqual(new Set([90]));
    expect(timesEach(rows.map((m) => m.toAddress))).toEqual(ids.map(() => 1));
    console.log(
      `[faults] Twilio down 60 s: ${ids.length} texts waited, sent ${[...sentAt.values()][0]} s after they were due, once each, 0 failed`,
    );
  });

  it('for seven minutes: still delivered once each, on the last attempt', async () => {
    const ids = await queueTexts('seven');
    // Attempts at 0, 30, 90, 210 and 450 s: an outage shorter than 450 s loses nothing.
    const sentAt = await outage(ids, 7 * 60, 600);
    const rows = await rowsOf(ids);
    expect(rows.map((m) => m.status)).toEqual(ids.map(() => 'sent'));
    expect(new Set(rows.map((m) => m.attempts))).toEqual(new Set([5]));
    expect(new Set(sentAt.values())).toEqual(new Set([450]));
    expect(timesEach(rows.map((m) => m.toAddress))).toEqual(ids.map(() => 1));
  });

  it('for longer than the retries: texts fail visibly with the reason, none is sent twice', async () => {
    const ids = await queueTexts('long');
    await outage(ids, 10 * 60, 10 * 60 - STEP_S);
    const rows = await rowsOf(ids);
    expect(rows.every((m) => m.status === 'failed' && m.attempts === 5 && m.error?.startsWith('Could not reach Twilio'))).toBe(true);
    expect(timesEach(rows.map((m) => m.toAddress))).toEqual(ids.map(() => 0));
  });
});
