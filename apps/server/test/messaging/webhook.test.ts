import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { MEDIA_CSP } from '../../src/routes/media/index';
import { messages, phoneOptOuts, users } from '../../src/db/schema';
import { uniquePhone } from '../helpers/app';
import { JPEG, PNG, createLoop, createPerson, testClock, textsTo, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { mmsParams, postWebhook, sid, smsParams, statusParams, whatsappParams } from '../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });
const { db } = env;

const post = (params: Record<string, string>, options: { signature?: string | null; path?: string } = {}) =>
  postWebhook(env.t.app, options.path ?? '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken, ...options });
const inboundBySid = (messageSid: string) => db().select().from(messages).where(eq(messages.providerMessageId, messageSid));

async function memberInOneLoop(name = 'Smith Family', preference: 'sms' | 'whatsapp' = 'sms') {
  const person = await createPerson(db(), { firstName: 'Ada', messagingPreference: preference });
  const loop = await createLoop(db(), { name, memberIds: [person.id] });
  return { person, loop };
}

describe('POST /api/webhooks/twilio/messages: signature', () => {
  it('refuses a request without a signature with 403 and stores nothing', async () => {
    const params = smsParams({ accountSid: env.fake.accountSid, from: uniquePhone(), body: 'hello' });
    const res = await post(params, { signature: null });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/X-Twilio-Signature/);
    expect(await inboundBySid(params.MessageSid ?? '')).toHaveLength(0);
  });

  it('refuses a wrong signature, or one for other parameters, with 403 and stores nothing', async () => {
    const params = smsParams({ accountSid: env.fake.accountSid, from: uniquePhone(), body: 'hello' });
    expect((await post(params, { signature: 'bm90IGEgc2lnbmF0dXJl' })).statusCode).toBe(403);
    const forged = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: 'someone-elses-token' });
    expect(forged.statusCode).toBe(403);
    expect(await inboundBySid(params.MessageSid ?? '')).toHaveLength(0);
  });

  it('refuses every webhook when Twilio is not configured', async () => {
    const simulatorApp = await env.t.rebuild({
      TWILIO_ACCOUNT_SID: '',
      TWILIO_AUTH_TOKEN: '',
      TWILIO_FROM_NUMBER: '',
      TWILIO_API_BASE_URL: '',
    });
    const params = smsParams({ accountSid: env.fake.accountSid, from: uniquePhone(), body: 'hello' });
    const res = await postWebhook(simulatorApp, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
    expect(res.statusCode).toBe(403);
    expect(await inboundBySid(params.MessageSid ?? '')).toHaveLength(0);
  });

  it('answers a signed text at once with empty TwiML and stores it for the worker', async () => {
    const params = smsParams({ accountSid: env.fake.accountSid, from: uniquePhone(), body: 'hello' });
    const res = await post(params);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const [row] = await inboundBySid(params.MessageSid ?? '');
    expect(row).toMatchObject({ direction: 'inbound', status: 'received', body: 'hello', channel: 'sms', raw: params });
  });
});

describe('webhook fixtures', () => {
  it('SMS: becomes an update in the Loop and a confirmation naming it', async () => {
    const { person, loop } = await memberInOneLoop('Smith Family');
    await post(smsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'We got a puppy!' }));
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db(), loop.id);
    expect(update).toMatchObject({ content: 'We got a puppy!', userId: person.id });
    const [reply] = await textsTo(db(), person.phoneNumber);
    expect(reply).toMatchObject({ kind: 'reply', status: 'sent', channel: 'sms' });
    expect(reply?.body).toBe('Thanks Ada! Your update went to "Smith Family".');
    expect(env.fake.sent.at(-1)?.params).toMatchObject({ To: person.phoneNumber, From: '+15005550006', Body: reply?.body });
    const [user] = await db().select().from(users).where(eq(users.id, person.id));
    // An SMS never opens WhatsApp's window (it is per channel).
    expect(user?.lastWhatsappInboundAt).toBeNull();
  });

  it('MMS with two photos: both copied with Basic auth, served from /media/{key}', async () => {
    const { person, loop } = await memberInOneLoop('Photo Club');
    const first = env.fake.addMedia(`/2010-04-01/Accounts/${env.fake.accountSid}/Messages/MM1/Media/${sid('ME')}`, JPEG, 'image/jpeg');
    const second = env.fake.addMedia(`/2010-04-01/Accounts/${env.fake.accountSid}/Messages/MM1/Media/${sid('ME')}`, PNG, 'image/png');
    await post(
      mmsParams({
        accountSid: env.fake.accountSid,
        from: person.phoneNumber,
        body: 'Beach day',
        media: [
          { url: first, contentType: 'image/jpeg' },
          { url: second, contentType: 'image/png' },
        ],
      }),
    );
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db(), loop.id);
    expect(update?.content).toBe('Beach day');
    // Both converted by the photo pipeline: what is stored and served is WebP, never the bytes sent.
    expect(update?.media.map((m) => m.contentType)).toEqual(['image/webp', 'image/webp']);
    expect(env.fake.mediaRequests.slice(-2).every((r) => r.authorization?.startsWith('Basic '))).toBe(true);
    const served = await env.t.app.inject({ url: `/media/${update?.media[1]?.storageKey}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe(MEDIA_CSP);
    // E-mails show it from other origins: webmail, and the Mail Simulator's sandboxed frame.
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const [reply] = await textsTo(db(), person.phoneNumber);
    expect(reply?.body).toBe('Thanks Ada! Your update and 2 photos went to "Photo Club".');
  });

  it('WhatsApp: the sender is found without the whatsapp: prefix and answered on WhatsApp', async () => {
    const { person, loop } = await memberInOneLoop('Book Club', 'whatsapp');
    await post(whatsappParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Finished chapter 3' }));
    await sweepUntilIdle(env.t.app.ctx);
    expect((await updatesOf(db(), loop.id))[0]?.content).toBe('Finished chapter 3');
    const [reply] = await textsTo(db(), person.phoneNumber);
    expect(reply).toMatchObject({ channel: 'whatsapp', status: 'sent', fromAddress: 'whatsapp:+14155238886' });
    expect(env.fake.sent.at(-1)?.params).toMatchObject({ To: `whatsapp:${person.phoneNumber}`, From: 'whatsapp:+14155238886' });
  });

  it('a video that is not one: the text is kept, the reply says which and what to send instead', async () => {
    const { person, loop } = await memberInOneLoop('Cousins');
    const video = env.fake.addMedia(
      `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/MM2/Media/${sid('ME')}`,
      Buffer.from('mp4'),
      'video/mp4',
    );
    await post(
      mmsParams({
        accountSid: env.fake.accountSid,
        from: person.phoneNumber,
        body: 'Look at him go',
        media: [{ url: video, contentType: 'video/mp4' }],
      }),
    );
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db(), loop.id);
    expect(update).toMatchObject({ content: 'Look at him go', media: [] });
    const [reply] = await textsTo(db(), person.phoneNumber);
    expect(reply?.body).toBe(
      'Thanks Ada! Your update went to "Cousins". Your voice memo or video couldn\'t be saved: it isn\'t a voice memo or video Loop can read (send MP4, MOV, 3GP, M4A, MP3, AMR or Ogg).',
    );
  });

  it('a voice memo alone that cannot be read: nothing stored, the reply says why', async () => {
    const { person, loop } = await memberInOneLoop('Voice Fans');
    const memo = env.fake.addMedia(
      `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/MM3/Media/${sid('ME')}`,
      Buffer.from('amr'),
      'audio/amr',
    );
    await post(
      mmsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: '', media: [{ url: memo, contentType: 'audio/amr' }] }),
    );
    await sweepUntilIdle(env.t.app.ctx);
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect((await textsTo(db(), person.phoneNumber))[0]?.body).toMatch(
      /^Your voice memo or video couldn't be saved: it isn't a voice memo or video/,
    );
  });

  it('STOP with OptOutType: the phone is opted out, no update, no reply of ours', async () => {
    const { person, loop } = await memberInOneLoop('Quiet Ones');
    await post({ ...smsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Stop' }), OptOutType: 'STOP' });
    await sweepUntilIdle(env.t.app.ctx);
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(await textsTo(db(), person.phoneNumber)).toEqual([]);
    const [optOut] = await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, person.phoneNumber));
    expect(optOut?.reason).toBe('OptOutType=STOP');
  });
});

describe('Twilio retries', () => {
  it('one MessageSid posted five times at once makes one row, one update and one reply', async () => {
    const { person, loop } = await memberInOneLoop('Retry Family');
    const params = smsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Only once please' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(params)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await inboundBySid(params.MessageSid ?? '')).toHaveLength(1);
    await sweepUntilIdle(env.t.app.ctx);
    await post(params);
    await sweepUntilIdle(env.t.app.ctx);
    expect(await updatesOf(db(), loop.id)).toHaveLength(1);
    expect(await textsTo(db(), person.phoneNumber)).toHaveLength(1);
  });
});

describe('POST /api/webhooks/twilio/status', () => {
  async function sentText() {
    const { person } = await memberInOneLoop('Status Loop');
    await post(smsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'hi' }));
    await sweepUntilIdle(env.t.app.ctx);
    const [reply] = await textsTo(db(), person.phoneNumber);
    if (!reply?.providerMessageId) throw new Error('no reply was sent');
    return { person, reply, messageSid: reply.providerMessageId };
  }
  const status = (messageSid: string, to: string, value: string, errorCode?: string) =>
    post(statusParams({ accountSid: env.fake.accountSid, messageSid, status: value, to, ...(errorCode ? { errorCode } : {}) }), {
      path: '/api/webhooks/twilio/status',
    });

  it('records delivered, and never moves a status backwards', async () => {
    const { person, messageSid } = await sentText();
    expect((await status(messageSid, person.phoneNumber, 'sent')).statusCode).toBe(204);
    expect((await status(messageSid, person.phoneNumber, 'delivered')).statusCode).toBe(204);
    expect((await status(messageSid, person.phoneNumber, 'sent')).statusCode).toBe(204);
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(row?.status).toBe('delivered');
  });

  it('records undelivered and failed with the error code; 21610 opts the phone out', async () => {
    const { person, messageSid } = await sentText();
    await status(messageSid, person.phoneNumber, 'undelivered', '30003');
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({
      status: 'undelivered',
      error: 'Twilio error 30003 (undelivered)',
    });

    const other = await sentText();
    await status(other.messageSid, other.person.phoneNumber, 'failed', '21610');
    expect((await textsTo(db(), other.person.phoneNumber))[0]?.status).toBe('failed');
    const optOuts = await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, other.person.phoneNumber));
    expect(optOuts).toHaveLength(1);
  });

  it('is signed like the messages webhook', async () => {
    const { person, messageSid } = await sentText();
    const res = await post(statusParams({ accountSid: env.fake.accountSid, messageSid, status: 'delivered', to: person.phoneNumber }), {
      path: '/api/webhooks/twilio/status',
      signature: 'wrong',
    });
    expect(res.statusCode).toBe(403);
    expect((await textsTo(db(), person.phoneNumber))[0]?.status).toBe('sent');
  });
});

describe('form bodies', () => {
  it('stay refused on the JSON API', async () => {
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.c&password=x',
    });
    expect(res.statusCode).toBe(415);
  });
});
