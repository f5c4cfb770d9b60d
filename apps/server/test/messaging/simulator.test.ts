import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { createTestApp, signUp, type TestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { movVideo, oggMemo } from '../helpers/clips';
import { JPEG, PNG, createLoop, createPerson, updatesOf } from '../helpers/messaging';
import { simulatorForm, type FormFile } from '../helpers/simulator-form';

let t: TestContext;
let fake: FakeTwilio;
let me: Awaited<ReturnType<typeof signUp>>;
let mate: Awaited<ReturnType<typeof createPerson>>;
let outsider: Awaited<ReturnType<typeof createPerson>>;
let loopId: number;

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp();
  const db = t.testDb.database.db;
  me = await signUp(t.app, { firstName: 'Maya' });
  mate = await createPerson(db, { firstName: 'Theo', messagingPreference: 'whatsapp' });
  outsider = await createPerson(db, { firstName: 'Zed' });
  loopId = (await createLoop(db, { name: 'Garden Club', memberIds: [me.user.id, mate.id] })).id;
  await createLoop(db, { name: 'Elsewhere', memberIds: [outsider.id] });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const get = (app: TestApp, url: string, cookie = me.cookie) => app.inject({ url, headers: { cookie } });
const sendAs = (app: TestApp, phone: string, payload: unknown, cookie = me.cookie) =>
  app.inject({
    method: 'POST',
    url: `/api/simulator/phones/${encodeURIComponent(phone)}/messages`,
    headers: { cookie },
    payload: payload as object,
  });
const send = (app: TestApp, phone: string, payload: unknown) => sendAs(app, phone, payload);
/** A text with files: multipart, as the web app sends it. */
const sendFiles = async (app: TestApp, phone: string, text: Parameters<typeof simulatorForm>[0], files: FormFile[], cookie = me.cookie) => {
  const form = await simulatorForm(text, files);
  return app.inject({
    method: 'POST',
    url: `/api/simulator/phones/${encodeURIComponent(phone)}/messages`,
    headers: { cookie, ...form.headers },
    payload: form.payload,
  });
};

describe('GET /api/config', () => {
  it('says which provider is on', async () => {
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ messagingProvider: 'simulator' });
  });
});

describe('GET /api/simulator/phones', () => {
  it('needs a session', async () => {
    const res = await t.app.inject({ url: '/api/simulator/phones' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please log in to continue.' });
  });

  it('lists the members of my Loops with their Loops, and nobody else', async () => {
    const { phones } = (await get(t.app, '/api/simulator/phones')).json();
    expect(phones).toEqual([
      expect.objectContaining({
        firstName: 'Maya',
        phoneNumber: me.account.phoneNumber,
        loops: [{ id: loopId, name: 'Garden Club' }],
        optedOut: false,
      }),
      expect.objectContaining({ firstName: 'Theo', phoneNumber: mate.phoneNumber, messagingPreference: 'whatsapp', userId: mate.id }),
    ]);
  });
});

describe('a phone’s thread', () => {
  it('is a 404 for a phone outside my Loops and a 400 for something that is not a phone number', async () => {
    const hidden = await get(t.app, `/api/simulator/phones/${encodeURIComponent(outsider.phoneNumber)}/messages`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('No member of your Loops has this phone number.');
    expect((await send(t.app, outsider.phoneNumber, { body: 'hi' })).statusCode).toBe(404);
    const bad = await get(t.app, '/api/simulator/phones/not-a-phone/messages');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Phone number must be a valid international number/);
  });

  it('a text with a photo goes through the inbound pipeline into the Loop, and the thread shows both ways', async () => {
    const res = await sendFiles(t.app, mate.phoneNumber, { body: 'First tomatoes!' }, [{ contentType: 'image/png', bytes: PNG }]);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: expect.any(Number), status: 'received' });
    await sweepUntilIdle(t.app.ctx);

    const [update] = await updatesOf(t.testDb.database.db, loopId);
    expect(update).toMatchObject({ content: 'First tomatoes!', userId: mate.id });
    expect(update?.media).toHaveLength(1);

    const thread = (await get(t.app, `/api/simulator/phones/${encodeURIComponent(mate.phoneNumber)}/messages`)).json();
    expect(thread.phone.phoneNumber).toBe(mate.phoneNumber);
    expect(thread.messages).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        channel: 'whatsapp',
        body: 'First tomatoes!',
        status: 'processed',
        mediaUrls: [`/media/${update?.media[0]?.storageKey}`],
      }),
      expect.objectContaining({
        direction: 'outbound',
        channel: 'whatsapp',
        kind: 'reply',
        status: 'sent',
        body: 'Thanks Theo! Your update and photo went to "Garden Club".',
      }),
    ]);
    expect(thread.messages[0].photos).toEqual([{ url: `/media/${update?.media[0]?.storageKey}`, width: 8, height: 8, widths: [8] }]);
    const photo = await t.app.inject({ url: thread.messages[0].mediaUrls[0] });
    expect(photo.statusCode).toBe(200);
    // The converted photo, never the bytes as sent.
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(photo.rawPayload.equals(PNG)).toBe(false);
  });

  it('keywords work from the simulator too, and the channel can be chosen', async () => {
    await send(t.app, me.account.phoneNumber, { body: 'LOOPS', channel: 'sms' });
    await sweepUntilIdle(t.app.ctx);
    const thread = (await get(t.app, `/api/simulator/phones/${encodeURIComponent(me.account.phoneNumber)}/messages`)).json();
    expect(thread.messages.at(-1)).toMatchObject({
      direction: 'outbound',
      channel: 'sms',
      body: expect.stringMatching(/^Your Loops: "Garden Club"\./),
    });
  });
});

describe('what else a phone sends (a location) and STOP as Twilio answers it', () => {
  const thread = async (phone: string) => (await get(t.app, `/api/simulator/phones/${encodeURIComponent(phone)}/messages`)).json().messages;
  const lastReply = async (phone: string) => (await thread(phone)).at(-1);

  it.each([
    [['video'], 'Video', /^Your voice memo or video couldn't be saved: the Phone Simulator sent no file with it/],
    [['voice_memo'], 'Voice memo', /^Your voice memo or video couldn't be saved: the Phone Simulator sent no file with it/],
    [['contact'], 'Contact card', /^Loop can't share a contact card:/],
    [['pdf'], 'PDF', /^Loop can't share a PDF:/],
  ])('%j: sent, shown in the thread, and answered accurately', async (attachments, label, reply) => {
    expect((await send(t.app, mate.phoneNumber, { attachments })).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    expect(await lastReply(mate.phoneNumber)).toMatchObject({ direction: 'outbound', body: expect.stringMatching(reply) });
    expect((await thread(mate.phoneNumber)).at(-2)).toMatchObject({ direction: 'inbound', attachments: [label] });
  });

  it('a WhatsApp location gets the location reply; on SMS a location is refused', async () => {
    expect((await send(t.app, mate.phoneNumber, { location: { latitude: 51.5, longitude: -0.12 }, channel: 'whatsapp' })).statusCode).toBe(
      202,
    );
    await sweepUntilIdle(t.app.ctx);
    expect(await lastReply(mate.phoneNumber)).toMatchObject({ body: expect.stringMatching(/^Loop can't share a location pin\./) });
    expect((await thread(mate.phoneNumber)).at(-2)).toMatchObject({ direction: 'inbound', attachments: ['Location'] });
    const sms = await send(t.app, mate.phoneNumber, { location: { latitude: 51.5, longitude: -0.12 }, channel: 'sms' });
    expect(sms.statusCode).toBe(400);
    expect(sms.json().message).toBe('A location can only be sent on WhatsApp.');
  });

  it('STOP on SMS gets Twilio’s confirmation, as a real phone would; a text after it is not shared', async () => {
    const db = t.testDb.database.db;
    // STOP is the phone's, across every Loop: Sam sends it from his own phone (decision 0031).
    const sam = await signUp(t.app, { firstName: 'Sam' });
    const stopper = { id: sam.user.id, phoneNumber: sam.account.phoneNumber };
    const garden = await createLoop(db, { name: 'Stoppers', memberIds: [stopper.id] });
    const send = (app: TestApp, phone: string, payload: unknown) => sendAs(app, phone, payload, sam.cookie);
    const thread = async (phone: string) =>
      (await get(t.app, `/api/simulator/phones/${encodeURIComponent(phone)}/messages`, sam.cookie)).json().messages;
    const lastReply = async (phone: string) => (await thread(phone)).at(-1);
    expect((await send(t.app, stopper.phoneNumber, { body: 'STOP' })).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    expect(await lastReply(stopper.phoneNumber)).toMatchObject({
      kind: 'opt_out_notice',
      status: 'sent',
      body: expect.stringMatching(/^You have successfully been unsubscribed/),
    });
    await send(t.app, stopper.phoneNumber, { body: 'Still sharing?' });
    await sweepUntilIdle(t.app.ctx);
    expect(await updatesOf(db, garden.id)).toEqual([]);
    expect((await thread(stopper.phoneNumber)).at(-1)).toMatchObject({
      direction: 'inbound',
      status: 'ignored',
      error: 'Not shared: this phone opted out (STOP).',
    });
  });
});

describe('a real voice memo or video from the simulator (decision 0023)', () => {
  // Fixtures made by Debian's ffmpeg from lavfi sources (helpers/clips.ts), never downloaded.
  it('goes through the same pipeline as a Twilio MMS: an update with a playable clip, and the upload gone', async () => {
    const db = t.testDb.database.db;
    const before = (await updatesOf(db, loopId)).length;
    const res = await sendFiles(t.app, mate.phoneNumber, { body: 'Hear this' }, [{ contentType: 'audio/ogg', bytes: oggMemo(2) }]);
    expect(res.statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    const update = (await updatesOf(db, loopId))[before];
    expect(update).toMatchObject({ content: 'Hear this', userId: mate.id });
    expect(update?.media).toEqual([expect.objectContaining({ contentType: 'audio/mp4' })]);
    const played = await get(t.app, `/media/${update?.media[0]?.storageKey}`);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/mp4');
    const messages = (await get(t.app, `/api/simulator/phones/${encodeURIComponent(mate.phoneNumber)}/messages`)).json().messages;
    expect(messages.at(-2)).toMatchObject({ direction: 'inbound', status: 'processed', attachments: ['Voice memo'] });
    expect(messages.at(-1).body).toMatch(/^Thanks Theo!/);
  });

  it('refuses a video larger than the channel takes, and a file that is no audio or video, with what to do', async () => {
    // Theo's phone texts by WhatsApp (16 MB); by SMS an MMS takes 5 MB (config.ts).
    const big = Buffer.concat([movVideo({ seconds: 1, width: 320, height: 240 }), Buffer.alloc(5 * 1024 * 1024)]);
    const sms = await sendFiles(t.app, mate.phoneNumber, { channel: 'sms' }, [{ contentType: 'video/mp4', bytes: big }]);
    expect(sms.statusCode).toBe(413);
    expect(sms.json().message).toBe('The video (file 1) is too large: by SMS/MMS it can be at most 5 MB.');
    const zip = await sendFiles(t.app, mate.phoneNumber, {}, [{ contentType: 'audio/mp4', bytes: Buffer.from('PK\x03\x04 not a memo') }]);
    expect(zip.statusCode).toBe(400);
    expect(zip.json().message).toBe('File 1 is not a voice memo Loop can read: send MP4, MOV, 3GP, M4A, MP3, AMR, Ogg, WAV, FLAC or WebM.');
    const huge = await sendFiles(t.app, mate.phoneNumber, {}, [{ contentType: 'video/mp4', bytes: Buffer.alloc(16 * 1024 * 1024 + 10) }]);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The video (file 1) is too large: on WhatsApp it can be at most 16 MB.');
  });
});

describe('POST /api/simulator/phones/:phone/messages validation', () => {
  it.each([
    [{}, 'Type a message or attach a photo'],
    [{ body: '   ' }, 'Type a message or attach a photo'],
    [{ body: 'x'.repeat(1601) }, 'A text can be at most 1600 characters'],
    [
      { body: 'hi', media: [{ contentType: 'image/png', dataBase64: PNG.toString('base64') }] },
      expect.stringMatching(/^Photos, voice memos and videos are sent as files/),
    ],
    [{ attachments: ['spreadsheet'] }, 'Attachments are video, voice_memo, contact or pdf'],
    [{ location: { latitude: 91, longitude: 0 } }, 'latitude must be from -90 to 90'],
  ])('refuses %j with a message a person can act on', async (payload, message) => {
    const res = await send(t.app, mate.phoneNumber, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(message);
  });

  it.each<[string, FormFile[], number, string]>([
    [
      'an SVG',
      [{ contentType: 'image/svg+xml', bytes: Buffer.from('<svg/>') }],
      400,
      'Photos must be JPEG, PNG, GIF or WebP images; voice memos and videos MP4, MOV, 3GP, M4A, MP3, AMR, Ogg, WAV, FLAC or WebM',
    ],
    ['a JPEG said to be a PNG', [{ contentType: 'image/png', bytes: JPEG }], 400, 'Photo 1 is not a PNG image.'],
    [
      '11 photos',
      Array.from({ length: 11 }, () => ({ contentType: 'image/jpeg', bytes: JPEG })),
      400,
      'At most 10 photos and attachments per text',
    ],
    ['a photo over 5 MB', [{ contentType: 'image/jpeg', bytes: Buffer.alloc(5 * 1024 * 1024 + 10) }], 413, 'Photo 1 is larger than 5 MB.'],
  ])('refuses files: %s, with a message a person can act on', async (_name, files, status, message) => {
    const res = await sendFiles(t.app, mate.phoneNumber, { body: 'hi' }, files);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('accepts JSON, and files only as multipart with the upload header (a cross-site form cannot add it)', async () => {
    const url = `/api/simulator/phones/${encodeURIComponent(mate.phoneNumber)}/messages`;
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: me.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'body=hi',
    });
    expect(res.statusCode).toBe(415);
    const form = await simulatorForm({ body: 'hi' }, [{ contentType: 'image/png', bytes: PNG }]);
    const { 'x-loop-upload': _header, ...withoutHeader } = form.headers;
    const forged = await t.app.inject({ method: 'POST', url, headers: { cookie: me.cookie, ...withoutHeader }, payload: form.payload });
    expect(forged.statusCode).toBe(415);
    expect(forged.json().message).toBe('This endpoint takes files as multipart/form-data with the header x-loop-upload: 1, or JSON.');
  });

  it('refuses fields after files, unknown parts and a cut-off form', async () => {
    const url = `/api/simulator/phones/${encodeURIComponent(mate.phoneNumber)}/messages`;
    const form = await simulatorForm({ body: 'hi' }, [{ contentType: 'image/png', bytes: PNG }]);
    const cut = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: me.cookie, ...form.headers },
      payload: form.payload.subarray(0, form.payload.length - 60),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe('The files could not be read: the form is cut off or malformed. Send it again.');
    const late = new FormData();
    late.append('media', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
    late.append('channel', 'sms');
    const lateRequest = new Request('http://127.0.0.1/', { method: 'POST', body: late });
    const after = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: me.cookie, 'content-type': lateRequest.headers.get('content-type') ?? '', 'x-loop-upload': '1' },
      payload: Buffer.from(await lateRequest.arrayBuffer()),
    });
    expect(after.statusCode).toBe(400);
    expect(after.json().message).toBe('Send the text’s fields (body, channel...) before its files.');
  });
});

describe('with Twilio configured', () => {
  let twilioApp: TestApp;
  let staff: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    twilioApp = await t.rebuild({ ...twilioEnv(fake), ADMIN_EMAILS: 'staff@example.com' });
    staff = await signUp(twilioApp, { email: 'staff@example.com' });
    // The sign-up code went to Twilio (a real phone's text): sent now, before the counts below.
    await sweepUntilIdle(twilioApp.ctx);
  });

  it('is refused to people who are not staff', async () => {
    const res = await get(twilioApp, '/api/simulator/phones');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The phone simulator is for Loop staff while real text messages are on.');
  });

  it('lets staff play any member, and its replies never reach Twilio', async () => {
    const { phones } = (await get(twilioApp, '/api/simulator/phones', staff.cookie)).json();
    expect(phones.map((p: { firstName: string }) => p.firstName)).toEqual(['Maya', 'Sam', 'Theo', 'Zed']);
    const before = fake.attempts.length;
    expect((await sendAs(twilioApp, outsider.phoneNumber, { body: 'From the simulator' }, staff.cookie)).statusCode).toBe(202);
    await sweepUntilIdle(twilioApp.ctx);
    const thread = (
      await get(twilioApp, `/api/simulator/phones/${encodeURIComponent(outsider.phoneNumber)}/messages`, staff.cookie)
    ).json();
    expect(thread.messages.at(-1)).toMatchObject({
      direction: 'outbound',
      status: 'sent',
      body: 'Thanks Zed! Your update went to "Elsewhere".',
    });
    expect(fake.attempts.length).toBe(before);
  });
});
