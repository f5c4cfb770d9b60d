import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages, phoneOptOuts, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { textsChannel } from '../../src/outbox/texts/channel';
import { optOutPhone } from '../../src/messaging/opt-outs';
import { enqueueLoopTexts, enqueueText, queueWelcomeText, type TextToQueue } from '../../src/messaging/outbox';
import { createPacer } from '../../src/outbox/pacer';
import { type TestApp } from '../helpers/app';
import { createLoop, createPerson, testClock, textsTo, useFakeTwilioApp } from '../helpers/messaging';

const TEMPLATE = `HX${'a'.repeat(32)}`;
const clock = testClock();
const env = useFakeTwilioApp({ clock });
const { db } = env;

let counter = 0;
const queue = (userId: number, extra: Partial<TextToQueue> = {}) =>
  db().transaction((tx) =>
    enqueueText(tx, { kind: 'reminder', userId, body: 'Time to share your news!', idempotencyKey: `test:${++counter}`, ...extra }),
  );
const sentTo = (phone: string) => env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
const attemptsTo = (phone: string) => env.fake.attempts.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);

describe('retries', () => {
  it('429 then 500 then 201: retried with exponential backoff and sent once', async () => {
    const person = await createPerson(db());
    const id = await queue(person.id);
    env.fake.failNext({ status: 429, code: 20429, message: 'Too Many Requests' }, { status: 500 });

    await sweepUntilIdle(env.t.app.ctx);
    let [row] = await textsTo(db(), person.phoneNumber);
    expect(row).toMatchObject({ id, status: 'queued', attempts: 1, error: 'Twilio error 20429: Too Many Requests (attempt 1 of 5)' });
    expect(row?.nextAttemptAt?.getTime()).toBe(clock().getTime() + 30_000);

    await sweepUntilIdle(env.t.app.ctx);
    expect(attemptsTo(person.phoneNumber)).toHaveLength(1);

    clock.advance(30_000);
    await sweepUntilIdle(env.t.app.ctx);
    [row] = await textsTo(db(), person.phoneNumber);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row?.nextAttemptAt?.getTime()).toBe(clock().getTime() + 60_000);

    clock.advance(60_000);
    await sweepUntilIdle(env.t.app.ctx);
    [row] = await textsTo(db(), person.phoneNumber);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, error: null, channel: 'sms', fromAddress: '+15005550006' });
    expect(row?.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(attemptsTo(person.phoneNumber)).toHaveLength(3);
    expect(sentTo(person.phoneNumber)).toHaveLength(1);
    expect(sentTo(person.phoneNumber)[0]?.params).toMatchObject({
      Body: 'Time to share your news!',
      From: '+15005550006',
      StatusCallback: 'https://loop.example.com/api/webhooks/twilio/status',
    });
  });

  it('is failed with the provider’s error after the last attempt', async () => {
    const app = await env.t.rebuild({ SEND_MAX_ATTEMPTS: '2', SEND_RETRY_BASE_SECONDS: '0' });
    const person = await createPerson(db());
    await queue(person.id);
    env.fake.failNext(
      { status: 503, code: 20503, message: 'Service Unavailable' },
      { status: 503, code: 20503, message: 'Service Unavailable' },
    );
    await sweepUntilIdle(app.ctx);
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, error: 'Twilio error 20503: Service Unavailable' });
    expect(sentTo(person.phoneNumber)).toHaveLength(0);
  });

  it('retries network errors too', async () => {
    const app = await env.t.rebuild({ TWILIO_API_BASE_URL: 'http://127.0.0.1:9', SEND_MAX_ATTEMPTS: '2', SEND_RETRY_BASE_SECONDS: '0' });
    const person = await createPerson(db());
    await queue(person.id);
    await sweepUntilIdle(app.ctx);
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(row?.status).toBe('failed');
    expect(row?.attempts).toBe(2);
    expect(row?.error).toMatch(/^Could not reach Twilio: /);
  });
});

describe('errors that cannot succeed fail at once and mark the member', () => {
  it('21610: the phone is opted out', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    env.fake.failNext({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
    await sweepUntilIdle(env.t.app.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    const [optOut] = await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, person.phoneNumber));
    expect(optOut?.reason).toBe('twilio:21610');
    expect(await queue(person.id)).toBeNull();
  });

  it('21211: the number is invalid and is not texted again', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    env.fake.failNext({ status: 400, code: 21211, message: "The 'To' number is not a valid phone number." });
    await sweepUntilIdle(env.t.app.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]?.error).toBe("Twilio error 21211: The 'To' number is not a valid phone number.");
    const [optOut] = await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, person.phoneNumber));
    expect(optOut?.reason).toBe('twilio:21211 invalid number');
  });

  it('63016: the window is taken as closed, and the text goes again at once (by SMS here: no template)', async () => {
    const person = await createPerson(db(), { messagingPreference: 'whatsapp' });
    await db().update(users).set({ lastWhatsappInboundAt: clock() }).where(eq(users.id, person.id));
    await queue(person.id);
    env.fake.failNext({ status: 400, code: 63016, message: 'Failed to send freeform message because you are outside the allowed window.' });
    await sweepUntilIdle(env.t.app.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'sent', attempts: 1, channel: 'sms' });
    expect(sentTo(person.phoneNumber).map((s) => s.params.From)).toEqual(['+15005550006']);
    const [user] = await db().select().from(users).where(eq(users.id, person.id));
    expect(user?.lastWhatsappInboundAt).toBeNull();
  });

  it('any other 4xx fails at once without marking anyone', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    env.fake.failNext({ status: 400, code: 21408, message: 'Permission to send an SMS has not been enabled for the region' });
    await sweepUntilIdle(env.t.app.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, person.phoneNumber))).toEqual([]);
  });
});

describe('opted-out members', () => {
  it('get nothing: not queued, and a text queued before they opted out is not sent', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    await optOutPhone(db(), person.phoneNumber, 'STOP', clock());
    expect(await queue(person.id)).toBeNull();
    await sweepUntilIdle(env.t.app.ctx);
    const rows = await textsTo(db(), person.phoneNumber);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', error: 'Not sent: this phone opted out of texts (STOP).' });
    expect(attemptsTo(person.phoneNumber)).toEqual([]);
  });
});

describe('WhatsApp', () => {
  it('inside 24 hours of the member’s last text: free-form WhatsApp', async () => {
    const person = await createPerson(db(), { messagingPreference: 'whatsapp' });
    await db()
      .update(users)
      .set({ lastWhatsappInboundAt: new Date(clock().getTime() - 23 * 3600_000) })
      .where(eq(users.id, person.id));
    await queue(person.id);
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(person.phoneNumber)[0]?.params).toMatchObject({
      To: `whatsapp:${person.phoneNumber}`,
      From: 'whatsapp:+14155238886',
      Body: 'Time to share your news!',
    });
  });

  it('outside the window with a template for the kind: the template, with its variables', async () => {
    const app = await env.t.rebuild({ TWILIO_WHATSAPP_TEMPLATES: `reminder=${TEMPLATE}, welcome=HX${'b'.repeat(32)}` });
    const person = await createPerson(db(), { messagingPreference: 'whatsapp' });
    const loop = await createLoop(db(), { name: 'Garden', memberIds: [person.id] });
    await queue(person.id, { templateVariables: { '1': 'Ada', '2': 'Garden' } });
    await db().transaction((tx) => queueWelcomeText(tx, { userId: person.id, loopId: loop.id, loopName: 'Garden' }));
    await sweepUntilIdle(app.ctx);
    // The welcome answers the person's YES, so it goes first (decision 0051).
    const [welcome, reminder] = sentTo(person.phoneNumber);
    expect(reminder?.params).toMatchObject({
      To: `whatsapp:${person.phoneNumber}`,
      ContentSid: TEMPLATE,
      ContentVariables: JSON.stringify({ 1: 'Ada', 2: 'Garden' }),
    });
    expect(reminder?.params.Body).toBeUndefined();
    expect(welcome?.params).toMatchObject({ ContentSid: `HX${'b'.repeat(32)}`, ContentVariables: JSON.stringify({ 1: 'Garden' }) });
  });

  it('outside the window without a template: SMS instead', async () => {
    const person = await createPerson(db(), { messagingPreference: 'whatsapp' });
    await queue(person.id, { kind: 'newsletter' });
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(person.phoneNumber)[0]?.params).toMatchObject({ To: person.phoneNumber, From: '+15005550006' });
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ channel: 'sms', status: 'sent' });
  });
});

describe('the outbox', () => {
  it('queues one text per idempotency key', async () => {
    const person = await createPerson(db());
    const first = await queue(person.id, { idempotencyKey: 'reminder:1:slot:1' });
    const again = await queue(person.id, { idempotencyKey: 'reminder:1:slot:1' });
    expect(first).toEqual(expect.any(Number));
    expect(again).toBeNull();
    expect(await textsTo(db(), person.phoneNumber)).toHaveLength(1);
  });

  it('rolls back with the caller’s transaction', async () => {
    const person = await createPerson(db());
    await expect(
      db().transaction(async (tx) => {
        await enqueueText(tx, { kind: 'group_message', userId: person.id, body: 'x', idempotencyKey: `rollback:${person.id}` });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await textsTo(db(), person.phoneNumber)).toEqual([]);
  });

  it('sends one welcome text per membership, saying how to send updates', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Neighbours', memberIds: [person.id] });
    for (let i = 0; i < 2; i++)
      await db().transaction((tx) => queueWelcomeText(tx, { userId: person.id, loopId: loop.id, loopName: loop.name }));
    await sweepUntilIdle(env.t.app.ctx);
    const rows = await textsTo(db(), person.phoneNumber);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'welcome', status: 'sent', loopId: loop.id, idempotencyKey: `welcome:${loop.id}:${person.id}` });
    expect(rows[0]?.body).toMatch(/^Welcome to "Neighbours" on Loop! Text this number anytime/);
  });

  it('queues a text to every member of a Loop in one statement, skipping opted-out phones', async () => {
    const [a, b, c] = [await createPerson(db()), await createPerson(db()), await createPerson(db(), { messagingPreference: 'whatsapp' })];
    const loop = await createLoop(db(), { name: 'Street', memberIds: [a.id, b.id, c.id] });
    await optOutPhone(db(), b.phoneNumber, 'STOP', clock());
    const input = {
      loopId: loop.id,
      kind: 'newsletter' as const,
      body: 'Read it: https://x/n/1',
      keyPrefix: `newsletter:${loop.id}:1`,
      mediaUrls: ['/media/abc'],
    };
    expect(await db().transaction((tx) => enqueueLoopTexts(tx, input))).toBe(2);
    expect(await db().transaction((tx) => enqueueLoopTexts(tx, input))).toBe(0);
    const [forC] = await textsTo(db(), c.phoneNumber);
    expect(forC).toMatchObject({
      channel: 'whatsapp',
      kind: 'newsletter',
      status: 'queued',
      userId: c.id,
      loopId: loop.id,
      mediaUrls: ['/media/abc'],
      idempotencyKey: expect.stringMatching(new RegExp(`^newsletter:${loop.id}:1:\\d+$`)),
    });
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(a.phoneNumber)[0]?.params.MediaUrl).toBe('https://loop.example.com/media/abc');
    expect(await textsTo(db(), b.phoneNumber)).toEqual([]);
  });

  it('a text already sent is never sent again, however often the sender runs', async () => {
    const person = await createPerson(db());
    const id = await queue(person.id);
    await sweepUntilIdle(env.t.app.ctx);
    await sweepUntilIdle(env.t.app.ctx);
    const [row] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, id ?? 0));
    expect(row?.status).toBe('sent');
    // A later sweep claims nothing: only queued texts (or leases that ran out) are claimed.
    const pacer = createPacer(env.t.app.ctx.db, 0);
    expect(await textsChannel.sweep(env.t.app.ctx, pacer, {})).toBe(0);
    expect(sentTo(person.phoneNumber)).toHaveLength(1);
  });
});

describe('simulator mode', () => {
  let simulatorApp: TestApp;
  beforeAll(async () => {
    simulatorApp = await env.t.rebuild({ TWILIO_ACCOUNT_SID: '', TWILIO_AUTH_TOKEN: '', TWILIO_FROM_NUMBER: '', TWILIO_API_BASE_URL: '' });
  });

  it('marks texts sent without anything leaving the machine', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    const before = env.fake.attempts.length;
    await sweepUntilIdle(simulatorApp.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'sent', fromAddress: 'loop-simulator' });
    expect(env.fake.attempts.length).toBe(before);
  });
});
