/**
 * Conformance with Twilio's documented behaviour, through the real webhooks, the real `twilio`
 * SDK and a fake Twilio REST API on 127.0.0.1. Each case names the page or public fixture whose
 * payload shape it follows:
 *
 * - [webhook] https://www.twilio.com/docs/messaging/guides/webhook-request (inbound parameters,
 *   WhatsApp's MessageType, Latitude/Longitude, ButtonText/ButtonPayload)
 * - [status] https://www.twilio.com/docs/messaging/guides/track-outbound-message-status and
 *   https://www.twilio.com/docs/messaging/api/message-resource#message-status-values
 * - [aoo] https://help.twilio.com/articles/223134027 (default opt-out keywords) and
 *   https://www.twilio.com/docs/messaging/tutorials/advanced-opt-out (OptOutType)
 * - [errors] https://www.twilio.com/docs/api/errors/{code} for each code used
 * - [courier] nyaruka/courier handlers/twiml/handlers_test.go (receive, MMS, status cases)
 * - [chatwoot] chatwoot spec/services/twilio/incoming_message_service_spec.rb and
 *   delivery_status_service_spec.rb (WhatsApp location, statuses with ErrorCode)
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyStatuses, loops, members, messages, phoneOptOuts, users } from '../../src/db/schema';
import type { Db } from '../../src/db/client';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { claimTexts } from '../../src/outbox/texts/claim-texts';
import { optOutPhone } from '../../src/messaging/opt-outs';
import { enqueueText, type TextToQueue } from '../../src/messaging/outbox';
import { applyEarlyStatuses } from '../../src/messaging/record-status';
import { sendDueTexts } from '../../src/outbox/texts/send-texts';
import { createTestApp, type TestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { JPEG, PNG, createLoop, createPerson, testClock, textsTo, updatesOf } from '../helpers/messaging';
import { mmsParams, OUR_WHATSAPP, postWebhook, sid, smsParams, statusParams, whatsappParams } from '../helpers/twilio-fixtures';

const TEMPLATE = (digit: string) => `HX${digit.repeat(32)}`;
const TEMPLATES = `reminder=${TEMPLATE('1')},newsletter=${TEMPLATE('2')},group_message=${TEMPLATE('3')},sneak_peek=${TEMPLATE('4')},welcome=${TEMPLATE('5')}`;
const clock = testClock();
let t: TestContext;
let fake: FakeTwilio;
let app: TestApp;
const db = (): Db => t.testDb.database.db;

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake, { TWILIO_WHATSAPP_TEMPLATES: TEMPLATES }), { clock });
  app = t.app;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const post = (params: Record<string, string>, path = '/api/webhooks/twilio/messages') =>
  postWebhook(app, path, params, { authToken: fake.authToken });
const postStatus = (params: Record<string, string>) => post(params, '/api/webhooks/twilio/status');
const run = () => sweepUntilIdle(app.ctx);
const sentTo = (phone: string) => fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
const repliesTo = async (phone: string) => (await textsTo(db(), phone)).map((m) => m.body);
let counter = 0;
const queue = (userId: number, extra: Partial<TextToQueue> = {}) =>
  db().transaction((tx) =>
    enqueueText(tx, {
      kind: 'reminder',
      userId,
      body: 'Time to share your news!',
      idempotencyKey: `conf:${++counter}`,
      // A reminder's (and a newsletter link's) two template variables (whatsapp-templates.ts).
      templateVariables: { '1': 'Ada', '2': 'Loop' },
      ...extra,
    }),
  );

async function member(preference: 'sms' | 'whatsapp' = 'sms', loopName = `Loop ${++counter}`) {
  const person = await createPerson(db(), { firstName: 'Ada', messagingPreference: preference });
  const loop = await createLoop(db(), { name: loopName, memberIds: [person.id] });
  return { person, loop };
}
const isOptedOut = async (phone: string) => (await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phone))).length > 0;
const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0];

describe('inbound texts', () => {
  // [webhook] [courier] "Receive Valid": an SMS with Body, From, To, MessageSid, NumMedia=0.
  it('SMS: an update and one reply on SMS', async () => {
    const { person, loop } = await member();
    expect((await post(smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Hello from the lake' }))).statusCode).toBe(
      200,
    );
    await run();
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['Hello from the lake']);
    expect(sentTo(person.phoneNumber).map((s) => s.params.Body)).toEqual([`Thanks Ada! Your update went to "${loop.name}".`]);
  });

  // [webhook] [courier] "Receive Media": NumMedia with MediaUrlN / MediaContentTypeN.
  it.each([1, 3])('MMS with %i image(s): every photo copied into the update', async (count) => {
    const { person, loop } = await member();
    const media = Array.from({ length: count }, (_, i) => ({
      url: fake.addMedia(
        `/2010-04-01/Accounts/${fake.accountSid}/Messages/MM${count}/Media/${sid('ME')}`,
        i % 2 ? PNG : JPEG,
        i % 2 ? 'image/png' : 'image/jpeg',
      ),
      contentType: i % 2 ? 'image/png' : 'image/jpeg',
    }));
    await post(mmsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Pictures', media }));
    await run();
    const [update] = await updatesOf(db(), loop.id);
    expect(update?.media).toHaveLength(count);
  });

  // [webhook] WhatsApp: From is whatsapp:+E164, MessageType=text, WaId, ProfileName.
  it('WhatsApp text: an update, the reply on WhatsApp, and the 24-hour window opened', async () => {
    const { person, loop } = await member('whatsapp');
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Hi on WhatsApp' }));
    await run();
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['Hi on WhatsApp']);
    expect(sentTo(person.phoneNumber)[0]?.params).toMatchObject({ From: OUR_WHATSAPP, To: `whatsapp:${person.phoneNumber}` });
    expect((await userRow(person.id))?.lastWhatsappInboundAt?.toISOString()).toBe(clock().toISOString());
  });

  // [webhook] WhatsApp image: MessageType=image, NumMedia=1.
  it('WhatsApp image: the photo is shared', async () => {
    const { person, loop } = await member('whatsapp');
    const url = fake.addMedia(`/2010-04-01/Accounts/${fake.accountSid}/Messages/MMwa/Media/${sid('ME')}`, JPEG, 'image/jpeg');
    const params = {
      ...whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: '' }),
      MessageType: 'image',
      NumMedia: '1',
      MediaUrl0: url,
      MediaContentType0: 'image/jpeg',
    };
    await post(params);
    await run();
    expect((await updatesOf(db(), loop.id))[0]?.media).toHaveLength(1);
  });

  // [webhook] [chatwoot] "location message": MessageType=location, Latitude, Longitude, empty Body.
  it('WhatsApp location: the location reply, not "your text was empty"', async () => {
    const { person, loop } = await member('whatsapp');
    await post({
      ...whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: '' }),
      MessageType: 'location',
      Latitude: '12.9716',
      Longitude: '77.5946',
    });
    await run();
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(await repliesTo(person.phoneNumber)).toEqual([expect.stringMatching(/^Loop can't share a location pin\./)]);
  });

  // [webhook] WhatsApp quick reply: MessageType=button, ButtonText, ButtonPayload, Body = the button's text.
  it('WhatsApp button: opens the window, shares nothing', async () => {
    const { person, loop } = await member('whatsapp');
    await post({
      ...whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Read it' }),
      MessageType: 'button',
      ButtonText: 'Read it',
      ButtonPayload: 'read',
    });
    await run();
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect((await userRow(person.id))?.lastWhatsappInboundAt).not.toBeNull();
  });

  // [webhook] A shared contact arrives as a vCard medium (MediaContentType0 text/vcard); a PDF as application/pdf.
  it.each([
    ['text/vcard', /^Loop can't share a contact card:/],
    ['application/pdf', /^Loop can't share a PDF:/],
  ])('%s alone: the accurate reply, nothing fetched or shared', async (contentType, reply) => {
    const { person, loop } = await member('whatsapp');
    const before = fake.mediaRequests.length;
    await post({
      ...whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: '' }),
      MessageType: contentType.startsWith('text/') ? 'contacts' : 'document',
      NumMedia: '1',
      MediaUrl0: `${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages/MMx/Media/${sid('ME')}`,
      MediaContentType0: contentType,
    });
    await run();
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(await repliesTo(person.phoneNumber)).toEqual([expect.stringMatching(reply)]);
    expect(fake.mediaRequests.length).toBe(before);
  });

  // [webhook] A WhatsApp voice note arrives as audio/ogg, a video as video/mp4 (decision 0023): fetched and
  // converted; one Twilio no longer has gets a reply that says so, and nothing is shared.
  it.each(['video/mp4', 'audio/ogg'])('%s that cannot be fetched alone: the reply says so, nothing shared', async (contentType) => {
    const { person, loop } = await member('whatsapp');
    await post({
      ...whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: '' }),
      MessageType: contentType.startsWith('audio/') ? 'audio' : 'video',
      NumMedia: '1',
      MediaUrl0: `${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages/MMx/Media/${sid('ME')}`,
      MediaContentType0: contentType,
    });
    await run();
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(await repliesTo(person.phoneNumber)).toEqual(["Your voice memo or video couldn't be saved: it could not be downloaded."]);
  });

  // [courier] duplicate delivery: Twilio retries a webhook with the same MessageSid.
  it('duplicate MessageSids posted concurrently: one row, one update, one reply', async () => {
    const { person, loop } = await member();
    const params = smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Only once' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(params)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    await run();
    expect(
      await db()
        .select()
        .from(messages)
        .where(eq(messages.providerMessageId, params.MessageSid ?? '')),
    ).toHaveLength(1);
    expect(await updatesOf(db(), loop.id)).toHaveLength(1);
    expect(sentTo(person.phoneNumber)).toHaveLength(1);
  });

  // [webhook] WhatsApp senders may be identified by a business-scoped user id instead of a number.
  it('a WhatsApp sender without a phone number is kept with the reason, for staff, and not answered', async () => {
    const params: Record<string, string> = {
      ...whatsappParams({ accountSid: fake.accountSid, from: '+15550000000', body: 'hello' }),
      From: 'whatsapp:IN.1234567890abcdef',
    };
    await post(params);
    await run();
    const [row] = await db()
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, params.MessageSid ?? ''));
    expect(row).toMatchObject({ status: 'ignored', error: 'Not handled: the sender whatsapp:IN.1234567890abcdef has no phone number.' });
  });

  it('a webhook URL configured with a trailing slash is accepted (messages and status)', async () => {
    const { person } = await member();
    expect(
      (await post(smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'slash' }), '/api/webhooks/twilio/messages/'))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await postStatus({
          ...statusParams({ accountSid: fake.accountSid, messageSid: sid('SM'), status: 'sent', to: person.phoneNumber }),
        })
      ).statusCode,
    ).toBe(204);
    const slashed = await postWebhook(
      app,
      '/api/webhooks/twilio/status/',
      statusParams({ accountSid: fake.accountSid, messageSid: sid('SM'), status: 'sent', to: person.phoneNumber }),
      {
        authToken: fake.authToken,
      },
    );
    expect(slashed.statusCode).toBe(204);
  });
});

describe('1. the WhatsApp window is per channel', () => {
  it('an SMS from a WhatsApp member does not open it: the next reminder goes as the template', async () => {
    const { person } = await member('whatsapp');
    await post(smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'by SMS' }));
    await run();
    expect((await userRow(person.id))?.lastWhatsappInboundAt).toBeNull();
    await queue(person.id);
    await run();
    const reminder = sentTo(person.phoneNumber).find((s) => s.params.To === `whatsapp:${person.phoneNumber}`);
    expect(reminder?.params).toMatchObject({ ContentSid: TEMPLATE('1') });
    expect(reminder?.params.Body).toBeUndefined();
  });
});

describe('2. 63016: the window is closed and the text goes again as the template', () => {
  // [errors] https://www.twilio.com/docs/api/errors/63016 : "send a template message instead".
  it('answered at once (synchronous), also for texts already claimed behind it', async () => {
    const { person } = await member('whatsapp');
    await db().update(users).set({ lastWhatsappInboundAt: clock() }).where(eq(users.id, person.id));
    await queue(person.id);
    await queue(person.id, { kind: 'newsletter', body: 'The newsletter: https://x' });
    fake.failNext({ status: 400, code: 63016, message: 'Failed to send freeform message because you are outside the allowed window.' });
    await run();
    const sent = sentTo(person.phoneNumber).map((s) => s.params.ContentSid);
    expect(sent).toEqual([TEMPLATE('1'), TEMPLATE('2')]);
    expect((await textsTo(db(), person.phoneNumber)).map((m) => m.status)).toEqual(['sent', 'sent']);
    expect((await userRow(person.id))?.lastWhatsappInboundAt).toBeNull();
  });

  // [status] [chatwoot] a failed callback with ErrorCode=63016, after the send was recorded.
  it('in a status callback: window closed, the text queued again and sent as the template', async () => {
    const { person } = await member('whatsapp');
    await db().update(users).set({ lastWhatsappInboundAt: clock() }).where(eq(users.id, person.id));
    await queue(person.id);
    await run();
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(sentTo(person.phoneNumber)[0]?.params.Body).toBe('Time to share your news!');
    await postStatus(
      statusParams({
        accountSid: fake.accountSid,
        messageSid: row?.providerMessageId ?? '',
        status: 'failed',
        to: `whatsapp:${person.phoneNumber}`,
        errorCode: '63016',
      }),
    );
    expect((await userRow(person.id))?.lastWhatsappInboundAt).toBeNull();
    await run();
    expect(sentTo(person.phoneNumber).map((s) => s.params.ContentSid ?? 'free-form')).toEqual(['free-form', TEMPLATE('1')]);
    expect((await textsTo(db(), person.phoneNumber))[0]?.status).toBe('sent');
  });
});

describe('3. opt-out, pause and membership are checked at the moment of sending', () => {
  /** Sends claimed texts with a pacer that runs `during` while every text after the first waits for its slot. */
  async function sendWith(during: () => Promise<void>) {
    let waits = 0;
    let changed: Promise<void> | undefined;
    const pacer = {
      wait: async () => {
        waits += 1;
        if (waits >= 2) await (changed ??= during());
      },
    };
    const now = clock();
    return sendDueTexts(app.ctx, {
      claim: (limit) => claimTexts(db(), { now, leaseUntil: new Date(now.getTime() + 120_000), limit }),
      batch: 50,
      pacer,
    });
  }

  it('a STOP that arrives while a claimed text waits for its pace stops it', async () => {
    const [a, b] = [await createPerson(db()), await createPerson(db())];
    await queue(a.id);
    await queue(b.id);
    await sendWith(() => optOutPhone(db(), b.phoneNumber, 'STOP', clock()));
    expect(sentTo(a.phoneNumber)).toHaveLength(1);
    expect(sentTo(b.phoneNumber)).toHaveLength(0);
    expect((await textsTo(db(), b.phoneNumber))[0]).toMatchObject({
      status: 'failed',
      error: 'Not sent: this phone opted out of texts (STOP).',
    });
  });

  it('a Loop paused, or a member removed, after the texts were claimed: not sent', async () => {
    const [a, b, c] = [await createPerson(db()), await createPerson(db()), await createPerson(db())];
    const stays = await createLoop(db(), { name: 'Stays', memberIds: [a.id] });
    const paused = await createLoop(db(), { name: 'Paused later', memberIds: [b.id] });
    const left = await createLoop(db(), { name: 'Left later', memberIds: [c.id] });
    await queue(a.id, { loopId: stays.id });
    await queue(b.id, { loopId: paused.id });
    await queue(c.id, { loopId: left.id });
    await sendWith(async () => {
      await db().update(loops).set({ paused: true }).where(eq(loops.id, paused.id));
      await db().delete(members).where(eq(members.loopId, left.id));
    });
    expect(sentTo(a.phoneNumber)).toHaveLength(1);
    expect(sentTo(b.phoneNumber)).toHaveLength(0);
    expect(sentTo(c.phoneNumber)).toHaveLength(0);
    expect((await textsTo(db(), c.phoneNumber))[0]?.error).toBe(
      'Not sent: the member left the Loop, or the Loop was paused, after the text was queued.',
    );
  });
});

describe('4. status callbacks in any order', () => {
  // [status] every MessageStatus Twilio documents, in our words.
  it.each([
    ['accepted', 'sent'],
    ['scheduled', 'sent'],
    ['queued', 'sent'],
    ['sending', 'sent'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'delivered'],
    ['partially_delivered', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
  ])('%s after the send is recorded: %s (never backwards)', async (status, expected) => {
    const person = await createPerson(db());
    await queue(person.id);
    await run();
    const [row] = await textsTo(db(), person.phoneNumber);
    await postStatus(
      statusParams({ accountSid: fake.accountSid, messageSid: row?.providerMessageId ?? '', status, to: person.phoneNumber }),
    );
    expect((await textsTo(db(), person.phoneNumber))[0]?.status).toBe(expected);
  });

  /** Sends one text to `person`, posting `status` for it before Twilio's answer reaches us. */
  async function callbackBeforeAnswer(phone: string, status: string, errorCode?: string) {
    fake.beforeAnswer = async (messageSid) => {
      fake.beforeAnswer = undefined;
      const res = await postStatus(
        statusParams({ accountSid: fake.accountSid, messageSid, status, to: phone, ...(errorCode ? { errorCode } : {}) }),
      );
      expect(res.statusCode).toBe(204);
    };
    await run();
    expect(fake.beforeAnswer).toBeUndefined();
  }

  it('delivered before the send is recorded: kept, then applied when it is', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    await callbackBeforeAnswer(person.phoneNumber, 'delivered');
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(row?.status).toBe('delivered');
    expect(
      await db()
        .select()
        .from(earlyStatuses)
        .where(eq(earlyStatuses.providerMessageId, row?.providerMessageId ?? '')),
    ).toEqual([]);
  });

  // [errors] each code, in both orders relative to the send. 21610: the recipient replied STOP
  // (https://www.twilio.com/docs/api/errors/21610); 21211: invalid 'To' number; 21617: body over
  // 1,600 characters; 30003 unreachable, 30005 unknown destination, 30006 landline or unreachable
  // carrier, 30007 carrier filtering: recorded, the phone kept (they may pass).
  const codes: [string, 'failed' | 'undelivered', boolean][] = [
    ['30003', 'undelivered', false],
    ['30005', 'undelivered', false],
    ['30006', 'undelivered', false],
    ['30007', 'undelivered', false],
    ['21610', 'failed', true],
    ['21211', 'failed', true],
    ['21617', 'failed', false],
  ];
  for (const order of ['after', 'before'] as const) {
    it.each(codes)(`ErrorCode %s (%s) ${order} the send is recorded`, async (code, status, optsOut) => {
      const person = await createPerson(db());
      await queue(person.id);
      if (order === 'before') {
        await callbackBeforeAnswer(person.phoneNumber, status, code);
      } else {
        await run();
        const [row] = await textsTo(db(), person.phoneNumber);
        await postStatus(
          statusParams({
            accountSid: fake.accountSid,
            messageSid: row?.providerMessageId ?? '',
            status,
            to: person.phoneNumber,
            errorCode: code,
          }),
        );
      }
      expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status, error: `Twilio error ${code} (${status})` });
      expect(await isOptedOut(person.phoneNumber)).toBe(optsOut);
    });
  }

  it('63016 before the send is recorded: the text goes again as the template', async () => {
    const { person } = await member('whatsapp');
    await db().update(users).set({ lastWhatsappInboundAt: clock() }).where(eq(users.id, person.id));
    await queue(person.id);
    await callbackBeforeAnswer(`whatsapp:${person.phoneNumber}`, 'failed', '63016');
    await run();
    expect(sentTo(person.phoneNumber).map((s) => s.params.ContentSid ?? 'free-form')).toEqual(['free-form', TEMPLATE('1')]);
  });

  it('a callback that arrives just after the `sent` write looked is applied by the next sweep', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    await run();
    const [row] = await textsTo(db(), person.phoneNumber);
    await db()
      .insert(earlyStatuses)
      .values({ providerMessageId: row?.providerMessageId ?? '', status: 'delivered', receivedAt: clock() });
    expect(await applyEarlyStatuses(db(), { maxAttempts: 5, now: clock() })).toBe(1);
    expect((await textsTo(db(), person.phoneNumber))[0]?.status).toBe('delivered');
  });

  // [errors] 21617 answered at once: the body is too long. Nothing Loop writes is (messaging/text-limits.ts).
  it('21617 answered at once fails the text without retrying', async () => {
    const person = await createPerson(db());
    await queue(person.id);
    fake.failNext({ status: 400, code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.' });
    await run();
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });
});

describe('6. template variables are short and single-line', () => {
  it('a 1,600-character multi-line group message outside the window: every variable one line, at most 200 characters', async () => {
    const { person, loop } = await member('whatsapp');
    const body = Array.from({ length: 40 }, (_, i) => `Line ${i}: ${'news '.repeat(7)}`)
      .join('\n\n')
      .slice(0, 1600);
    await db().transaction(async (tx) => {
      const { enqueueLoopTexts } = await import('../../src/messaging/outbox');
      await enqueueLoopTexts(tx, {
        loopId: loop.id,
        kind: 'group_message',
        body,
        keyPrefix: `group_message:${loop.id}:conf`,
        templateVariables: { '1': loop.name, '2': body },
      });
    });
    await run();
    const [sent] = sentTo(person.phoneNumber);
    expect(sent?.params.ContentSid).toBe(TEMPLATE('3'));
    const variables = JSON.parse(String(sent?.params.ContentVariables)) as Record<string, string>;
    for (const value of Object.values(variables)) {
      expect(value).not.toMatch(/[\n\r\t]| {2}/);
      expect(value.length).toBeLessThanOrEqual(200);
    }
  });
});

describe('6. the whole text after the member replies', () => {
  const groupMessage = async (loopId: number, loopName: string, body: string) => {
    const { enqueueLoopTexts } = await import('../../src/messaging/outbox');
    await db().transaction((tx) =>
      enqueueLoopTexts(tx, {
        loopId,
        kind: 'group_message',
        body,
        keyPrefix: `group_message:${loopId}:${++counter}`,
        templateVariables: { '1': loopName, '2': body },
      }),
    );
  };
  const freeForm = (phone: string) =>
    sentTo(phone)
      .filter((s) => s.params.Body !== undefined && s.params.ContentSid === undefined)
      .map((s) => s.params.Body);

  it('a group message cut short by its template comes whole, free-form, once, when the member texts on WhatsApp', async () => {
    const { person, loop } = await member('whatsapp');
    const long = Array.from({ length: 12 }, (_, i) => `Line ${i}: the lake house is booked for the reunion.`).join('\n');
    await groupMessage(loop.id, loop.name, long);
    await groupMessage(loop.id, loop.name, 'Short and on one line.');
    await run();
    expect(sentTo(person.phoneNumber).map((s) => s.params.ContentSid)).toEqual([TEMPLATE('3'), TEMPLATE('3')]);

    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'What was the news?' }));
    await run();
    // The reply to their text, then the one text the template cut; the short one came whole already.
    expect(freeForm(person.phoneNumber)).toHaveLength(2);
    expect(freeForm(person.phoneNumber)).toContain(long);

    // A second text inside the window brings nothing again; a group message inside the window went whole.
    await groupMessage(loop.id, loop.name, `${long}\nP.S. inside the window`);
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'Thanks!' }));
    await run();
    const whole = freeForm(person.phoneNumber);
    expect(whole.filter((b) => b === long)).toHaveLength(1);
    expect(whole.filter((b) => b === `${long}\nP.S. inside the window`)).toHaveLength(1);
  });

  it('an opted-out member gets no whole text after a template', async () => {
    const { person, loop } = await member('whatsapp');
    const long = `${'Big news. '.repeat(30)}\nMore below.`;
    await groupMessage(loop.id, loop.name, long);
    await run();
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'STOP' }));
    await run();
    expect(freeForm(person.phoneNumber)).not.toContain(long);
  });
});

describe('8 and 9. keywords are answered once, as Twilio does', () => {
  // [aoo] Without Advanced Opt-Out Twilio answers STOP, START and HELP on SMS itself.
  it('SMS HELP: Twilio answers by default, Loop when TWILIO_KEYWORD_REPLIES=loop', async () => {
    const { person } = await member();
    await post(smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'HELP' }));
    await run();
    expect(sentTo(person.phoneNumber)).toEqual([]);
    const loopAnswers = await t.rebuild({ TWILIO_KEYWORD_REPLIES: 'loop' });
    await postWebhook(
      loopAnswers,
      '/api/webhooks/twilio/messages',
      smsParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'help' }),
      { authToken: fake.authToken },
    );
    await sweepUntilIdle(loopAnswers.ctx);
    expect(sentTo(person.phoneNumber).map((s) => s.params.Body)).toEqual([expect.stringContaining('Reply LOOPS to list your Loops')]);
  });

  // [aoo] Twilio does not process keywords on WhatsApp: Loop confirms STOP there itself, naming
  // Loop (CTIA Messaging Principles 5.1.3: an opt-out confirmation says who it is from).
  it('WhatsApp STOP: Loop confirms it, naming Loop, and the confirmation reaches the opted-out phone', async () => {
    const { person } = await member('whatsapp');
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'STOP' }));
    await run();
    expect(await isOptedOut(person.phoneNumber)).toBe(true);
    expect(sentTo(person.phoneNumber).map((s) => s.params.Body)).toEqual([
      "Loop: you're unsubscribed and will get no more Loop messages. Reply START to rejoin.",
    ]);
  });

  // CTIA Messaging Principles and Best Practices 5.1.2.1: an opt-in confirmation carries the
  // program (brand), the message frequency, "Msg & data rates may apply", HELP and opt-out words.
  it('WhatsApp START: Loop confirms it with brand, frequency, rates, HELP and STOP', async () => {
    const { person } = await member('whatsapp');
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'STOP' }));
    await run();
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'START' }));
    await run();
    expect(await isOptedOut(person.phoneNumber)).toBe(false);
    const answer = String(sentTo(person.phoneNumber).at(-1)?.params.Body);
    expect(answer).toMatch(/^Loop: /);
    expect(answer).toMatch(/Msg frequency varies/);
    expect(answer).toMatch(/Msg & data rates may apply/);
    expect(answer).toMatch(/Reply HELP for help, STOP to opt out/);
  });

  it('WhatsApp text while opted out: not shared, one "reply START" hint a day at most', async () => {
    const { person, loop } = await member('whatsapp');
    await optOutPhone(db(), person.phoneNumber, 'STOP', clock());
    for (const body of ['still here', 'and again']) {
      await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body }));
      await run();
    }
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(sentTo(person.phoneNumber).map((s) => s.params.Body)).toEqual([expect.stringMatching(/Reply START to rejoin/)]);
    clock.advance(25 * 3600_000);
    await post(whatsappParams({ accountSid: fake.accountSid, from: person.phoneNumber, body: 'next day' }));
    await run();
    expect(sentTo(person.phoneNumber)).toHaveLength(2);
  });
});
