import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { messages, newsletters, users } from '../../../src/db/schema';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { PIN_FAILURES_BEFORE_LOCK, setPhonePin } from '../../../src/services/calls/phone-pin';
import { CALL_WORDS } from '../../../src/voice/twiml';
import { probe, wavRecording } from '../../helpers/clips';
import { createLoop, createPerson, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { OUR_NUMBER, postWebhook } from '../../helpers/twilio-fixtures';

/**
 * The phone line (decision 0067) against a fake Twilio on 127.0.0.1. The webhook's fields are
 * Twilio's voice request parameters (https://www.twilio.com/docs/voice/twiml#request-parameters:
 * CallSid, AccountSid, From, To, CallStatus, Direction, StirVerstat), every request signed as
 * https://www.twilio.com/docs/usage/webhooks/webhooks-security describes; the answers are TwiML
 * (https://www.twilio.com/docs/voice/twiml/say, /gather, /play, /record, /redirect, /hangup); a
 * <Gather> action gets `Digits` (https://www.twilio.com/docs/voice/twiml/gather#attributes-action),
 * a <Record> action `RecordingUrl`, `RecordingSid` and `RecordingDuration`
 * (https://www.twilio.com/docs/voice/twiml/record#attributes-action), and the recording is fetched
 * from its URL with the account's Basic auth (https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file).
 */
const env = useFakeTwilioApp();
const VOICE = '/api/webhooks/twilio/voice';
const PUBLIC = 'https://loop.example.com';
const SECRET = 'test-secret-test-secret-test-secret-0123';

const callSid = () => `CA${randomBytes(16).toString('hex')}`;

interface Call {
  sid: string;
  from: string;
  attest?: string;
}

function post(call: Call, path: string, extra: Record<string, string> = {}, signature?: string | null) {
  const params: Record<string, string> = {
    AccountSid: env.fake.accountSid,
    CallSid: call.sid,
    From: call.from,
    To: OUR_NUMBER,
    CallStatus: 'in-progress',
    Direction: 'inbound',
    ...(call.attest ? { StirVerstat: call.attest } : {}),
    ...extra,
  };
  return postWebhook(env.t.app, path, params, { authToken: env.fake.authToken, ...(signature === undefined ? {} : { signature }) });
}

/** The first URL of this kind in a TwiML answer (an action or redirect), as a path with its query. */
function step(twiml: string, kind: string): string {
  const match = new RegExp(`${PUBLIC}(${VOICE}/${kind}\\?[^"<]+)`).exec(twiml);
  if (!match?.[1]) throw new Error(`no ${kind} step in ${twiml}`);
  return match[1].replaceAll('&amp;', '&');
}

async function family(options: { loops?: string[]; pin?: string } = {}) {
  const db = env.db();
  const owner = await createPerson(db, { firstName: 'Olive' });
  const grandma = await createPerson(db, { firstName: 'Rose' });
  const loops = [];
  for (const name of options.loops ?? ['Smith Family']) {
    loops.push(await createLoop(db, { name, memberIds: [owner.id, grandma.id] }));
  }
  if (options.pin) await setPhonePin(db, { secret: SECRET, userId: grandma.id, pin: options.pin });
  return { owner, grandma, loops };
}

async function publish(loopId: number, content: string, sentAt = new Date()) {
  await env
    .db()
    .insert(newsletters)
    .values({ loopId, status: 'sent', urlId: randomBytes(16).toString('base64url'), content, periodEnd: sentAt, sentAt });
}

const ISSUE = [
  'Here is what the Smith Family shared this week.',
  '## Olive Smith',
  '**Monday**',
  'We planted \\*tomatoes\\* today.',
  '## Ben Smith',
  'Ben lost a tooth.',
  '---',
  'See you next week!',
].join('\n\n');

const ATTESTED = 'TN-Validation-Passed-A';

describe('the voice webhook', () => {
  it('refuses a request without a valid Twilio signature', async () => {
    const { grandma } = await family();
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    expect((await post(call, VOICE, {}, null)).statusCode).toBe(403);
    expect((await post(call, VOICE, {}, 'bm90IGEgc2lnbmF0dXJl')).statusCode).toBe(403);
  });

  it('refuses a step URL taken from another call, or edited', async () => {
    const { grandma, loops } = await family();
    await publish(loops[0]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const answer = await post(call, VOICE);
    const menu = step(answer.body, 'menu');
    const other = { ...call, sid: callSid() };
    expect((await post(other, menu, { Digits: '2' })).statusCode).toBe(403);
    expect((await post(call, menu.replace(/s=[^&]+/, 's=eyJ2ZXJpZmllZCI6dHJ1ZX0'), { Digits: '2' })).statusCode).toBe(403);
    // A stranger's unproven call cannot reach a member's step by making up a state.
    const pinStep = step((await post({ sid: callSid(), from: grandma.phoneNumber }, VOICE)).body, 'pin');
    expect((await post({ sid: callSid(), from: grandma.phoneNumber }, pinStep.replace('/pin', '/menu'), { Digits: '1' })).statusCode).toBe(
      403,
    );
  });

  it('reads an attested member the latest newsletter: the Loop, then section by section, names first, then the menu', async () => {
    const { grandma, loops } = await family();
    await publish(loops[0]!.id, 'An older issue.', new Date(Date.now() - 7 * 86_400_000));
    await publish(loops[0]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const first = await post(call, VOICE);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/xml/);
    expect(first.body).toContain('<Say language="en-US">This is Loop, with the newsletter of Smith Family.</Say>');
    expect(first.body).toContain('Here is what the Smith Family shared this week.');
    expect(first.body).toContain(CALL_WORDS.menu);
    expect(first.body).not.toContain('Olive Smith');

    // No key: on to the next section, which starts with the member's name; emphasis marks are not read.
    const second = await post(call, step(first.body, 'play'));
    expect(second.body).toMatch(
      /<Say language="en-US">Olive Smith\.<\/Say><Say language="en-US">Monday<\/Say><Say language="en-US">We planted \*tomatoes\* today\.<\/Say>/,
    );
    // 1 repeats it, 2 goes on.
    expect((await post(call, step(second.body, 'menu'), { Digits: '1' })).body).toContain('Olive Smith.');
    const third = await post(call, step(second.body, 'menu'), { Digits: '2' });
    expect(third.body).toContain('Ben Smith.');
    expect(third.body).toContain('See you next week!');
    // The last section ends the call when no key comes.
    expect(third.body).toContain(`<Say language="en-US">${CALL_WORDS.end}</Say><Hangup/>`);
    // 3: the issue before, then none before that.
    const previous = await post(call, step(third.body, 'menu'), { Digits: '3' });
    expect(previous.body).toContain(CALL_WORDS.previous);
    expect(previous.body).toContain('An older issue.');
    expect((await post(call, step(previous.body, 'menu'), { Digits: '3' })).body).toContain(CALL_WORDS.noEarlier);
  });

  it('asks a member of several Loops to pick one first', async () => {
    const { grandma, loops } = await family({ loops: ['Cousins', 'Smith Family'] });
    await publish(loops[1]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const first = await post(call, VOICE);
    expect(first.body).toContain('For Cousins, press 1. For Smith Family, press 2.');
    const chosen = await post(call, step(first.body, 'loop'), { Digits: '2' });
    expect(chosen.body).toContain('This is Loop, with the newsletter of Smith Family.');
    expect((await post(call, step(first.body, 'loop'), { Digits: '1' })).body).toContain('Cousins has no newsletter yet.');
  });

  it('tells an unknown caller one sentence about Loop, and nothing about any Loop or person', async () => {
    const { loops } = await family();
    await publish(loops[0]!.id, ISSUE);
    const answer = await post({ sid: callSid(), from: '+12025550143', attest: ATTESTED }, VOICE);
    expect(answer.body).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">${CALL_WORDS.unknown}</Say><Hangup/></Response>`,
    );
  });

  it('asks every caller without full attestation for the PIN, the same words for members and strangers', async () => {
    const { grandma } = await family({ pin: '4821' });
    const member = await post({ sid: callSid(), from: grandma.phoneNumber, attest: 'TN-Validation-Passed-B' }, VOICE);
    const stranger = await post({ sid: callSid(), from: '+12025550144' }, VOICE);
    const words = (body: string) => body.replace(/action="[^"]+"/g, '').replace(/<Redirect[^>]*>[^<]+<\/Redirect>/, '');
    expect(words(member.body)).toBe(words(stranger.body));
    expect(member.body).toContain(CALL_WORDS.askPin);
    // A stranger's PINs are all wrong, three and the call ends.
    const call = { sid: callSid(), from: '+12025550144' };
    let answer = await post(call, VOICE);
    for (const tries of [1, 2]) {
      answer = await post(call, step(answer.body, 'pin'), { Digits: '0000' });
      expect(answer.body, `try ${tries}`).toContain(CALL_WORDS.wrongPin);
    }
    answer = await post(call, step(answer.body, 'pin'), { Digits: '1234' });
    expect(answer.body).toContain(`${CALL_WORDS.pinEnd}</Say><Hangup/>`);
  });
});

describe('PINs', () => {
  async function tryPins(from: string, pins: string[]) {
    const call = { sid: callSid(), from };
    let answer = await post(call, VOICE);
    for (const pin of pins) answer = await post(call, step(answer.body, 'pin'), { Digits: pin });
    return answer.body;
  }
  const failures = async (id: number) =>
    (await env.db().select({ n: users.phonePinFailures, until: users.phonePinLockedUntil }).from(users).where(eq(users.id, id)))[0];

  it('lets the right PIN in, stored only as a keyed hash', async () => {
    const { grandma, loops } = await family({ pin: '4821' });
    await publish(loops[0]!.id, ISSUE);
    expect(await tryPins(grandma.phoneNumber, ['1111', '4821'])).toContain('This is Loop, with the newsletter of Smith Family.');
    const [row] = await env.db().select().from(users).where(eq(users.id, grandma.id));
    expect(row?.phonePinHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(row)).not.toContain('4821');
    // The right PIN forgets the wrong one before it.
    expect((await failures(grandma.id))?.n).toBe(0);
  });

  it('ends the call after three wrong PINs, and counts them toward the phone lockout', async () => {
    const { grandma } = await family({ pin: '4821' });
    expect(await tryPins(grandma.phoneNumber, ['1111', '2222', '3333'])).toContain(`${CALL_WORDS.pinEnd}</Say><Hangup/>`);
    expect((await failures(grandma.id))?.n).toBe(3);
  });

  it('locks PIN entry after two calls of wrong PINs: then even the right PIN is refused', async () => {
    const { grandma, loops } = await family({ pin: '4821' });
    await publish(loops[0]!.id, ISSUE);
    await tryPins(grandma.phoneNumber, ['1111', '2222', '3333']);
    await tryPins(grandma.phoneNumber, ['1111', '2222', '3333']);
    expect(PIN_FAILURES_BEFORE_LOCK).toBe(6);
    expect((await failures(grandma.id))?.until?.getTime()).toBeGreaterThan(Date.now());
    expect(await tryPins(grandma.phoneNumber, ['4821'])).not.toContain('Smith Family');
  });

  it("a stranger's lockout never stops the holder's attested call, which lifts it", async () => {
    const { grandma, loops } = await family({ pin: '4821' });
    await publish(loops[0]!.id, ISSUE);
    for (let i = 0; i < 2; i++) await tryPins(grandma.phoneNumber, ['1111', '2222', '3333']);
    const attested = await post({ sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED }, VOICE);
    expect(attested.body).toContain('This is Loop, with the newsletter of Smith Family.');
    expect(await failures(grandma.id)).toEqual({ n: 0, until: null });
    expect(await tryPins(grandma.phoneNumber, ['4821'])).toContain('Smith Family');
  });

  it("a stranger's lockout never stops the holder on the website: a new PIN lifts it", async () => {
    const { grandma, loops } = await family({ pin: '4821' });
    await publish(loops[0]!.id, ISSUE);
    for (let i = 0; i < 2; i++) await tryPins(grandma.phoneNumber, ['1111', '2222', '3333']);
    await setPhonePin(env.db(), { secret: SECRET, userId: grandma.id, pin: '7777' });
    expect(await tryPins(grandma.phoneNumber, ['7777'])).toContain('Smith Family');
  });

  it('a member with no PIN cannot be reached without attestation', async () => {
    const { grandma, loops } = await family();
    await publish(loops[0]!.id, ISSUE);
    expect(await tryPins(grandma.phoneNumber, ['0000', '1234', '4821'])).toContain(CALL_WORDS.pinEnd);
  });
});

describe('consent', () => {
  it('a phone that said STOP hears only how to START, attested or not, and from the next step of a call', async () => {
    const { grandma, loops } = await family({ pin: '4821' });
    await publish(loops[0]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const before = await post(call, VOICE);
    await optOutPhone(env.db(), grandma.phoneNumber, 'STOP', new Date());
    const expected = `<Say language="en-US">${CALL_WORDS.optedOut}</Say><Hangup/>`;
    expect((await post(call, step(before.body, 'menu'), { Digits: '2' })).body).toContain(expected);
    expect((await post({ sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED }, VOICE)).body).toContain(expected);
    expect((await post({ sid: callSid(), from: grandma.phoneNumber }, VOICE)).body).toContain(expected);
  });

  it('"press 9" stops Loop\'s calls to the phone, not its texts, and says so', async () => {
    const { grandma, loops } = await family();
    await publish(loops[0]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const answer = await post(call, step((await post(call, VOICE)).body, 'menu'), { Digits: '9' });
    expect(answer.body).toContain(`${CALL_WORDS.callsStopped}</Say><Hangup/>`);
    const [row] = await env.db().select().from(users).where(eq(users.id, grandma.id));
    expect(row?.callsOptedOutAt).toBeInstanceOf(Date);
    const { isOptedOut } = await import('../../../src/messaging/opt-outs');
    expect(await isOptedOut(env.db(), grandma.phoneNumber)).toBe(false);
  });
});

describe('leaving news', () => {
  const recordingPath = () => `/2010-04-01/Accounts/${env.fake.accountSid}/Recordings/RE${randomBytes(16).toString('hex')}`;

  it('records up to 2 minutes with a beep and #, fetches it from Twilio with Basic auth, and stores a voice memo update', async () => {
    const { grandma, loops } = await family();
    const loop = loops[0]!;
    await publish(loop.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const record = await post(call, step((await post(call, VOICE)).body, 'menu'), { Digits: '4' });
    expect(record.body).toContain(CALL_WORDS.record);
    expect(record.body).toMatch(
      /<Record maxLength="120" playBeep="true" finishOnKey="#"[^>]*action="https:\/\/loop\.example\.com\/api\/webhooks\/twilio\/voice\/recorded\?/,
    );

    const path = recordingPath();
    const recordingUrl = env.fake.addMedia(path, wavRecording(2), 'audio/x-wav');
    const recordingSid = path.slice(path.lastIndexOf('/') + 1);
    const done = await post(call, step(record.body, 'recorded'), {
      RecordingUrl: recordingUrl,
      RecordingSid: recordingSid,
      RecordingDuration: '2',
    });
    expect(done.body).toContain('Thank you. Your news went to Smith Family.');
    await vi.waitFor(async () => expect(await updatesOf(env.db(), loop.id)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const [update] = await updatesOf(env.db(), loop.id);
    expect(update?.userId).toBe(grandma.id);
    expect(update?.media).toHaveLength(1);
    expect(update?.media[0]?.contentType).toBe('audio/mp4');
    const fetched = env.fake.mediaRequests.filter((r) => r.path === path);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.authorization).toBe(`Basic ${Buffer.from(`${env.fake.accountSid}:${env.fake.authToken}`).toString('base64')}`);
    // No metadata kept: the stored memo carries no tags.
    const stored = await env.t.app.ctx.storage.get(update!.media[0]!.variants.at(-1)!.key);
    expect(
      Object.keys(probe(stored!).format?.tags ?? {}).filter((t) => !['major_brand', 'minor_version', 'compatible_brands'].includes(t)),
    ).toEqual([]);
    // Twilio's retried action stores nothing twice.
    await post(call, step(record.body, 'recorded'), { RecordingUrl: recordingUrl, RecordingSid: recordingSid, RecordingDuration: '2' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await updatesOf(env.db(), loop.id)).toHaveLength(1);
  });

  it('never fetches a recording from a host that is not Twilio, nor sends it the credentials', async () => {
    const { grandma, loops } = await family();
    await publish(loops[0]!.id, ISSUE);
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const record = await post(call, step((await post(call, VOICE)).body, 'menu'), { Digits: '4' });
    const recordingSid = `RE${randomBytes(16).toString('hex')}`;
    await post(call, step(record.body, 'recorded'), {
      RecordingUrl: 'https://recordings.example.com/x.wav',
      RecordingSid: recordingSid,
      RecordingDuration: '3',
    });
    await vi.waitFor(async () => {
      const [row] = await env
        .db()
        .select()
        .from(messages)
        .where(eq(messages.providerMessageId, `voice:${recordingSid}`));
      expect(row?.status).toBe('ignored');
      expect(row?.error).toContain('not a Twilio media host');
    });
    expect(await updatesOf(env.db(), loops[0]!.id)).toHaveLength(0);
  });

  it("plays members' voice memos in place through a short-lived signed link", async () => {
    const { grandma, loops } = await family();
    const loop = loops[0]!;
    const call = { sid: callSid(), from: grandma.phoneNumber, attest: ATTESTED };
    const path = recordingPath();
    const recordingUrl = env.fake.addMedia(path, wavRecording(1), 'audio/x-wav');
    const noIssue = await post(call, VOICE);
    const record = await post(call, step(noIssue.body, 'menu'), { Digits: '4' });
    await post(call, step(record.body, 'recorded'), { RecordingUrl: recordingUrl, RecordingSid: path.slice(-34), RecordingDuration: '1' });
    await vi.waitFor(async () => expect(await updatesOf(env.db(), loop.id)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const key = (await updatesOf(env.db(), loop.id))[0]!.media[0]!.storageKey;
    await publish(
      loop.id,
      ['Hello.', '## Rose Lovelace', `![Voice memo from Rose, 0:01](/media/${key})`, '> “Hi all” *(transcribed)*'].join('\n\n'),
    );

    const listen = { ...call, sid: callSid() };
    const section = await post(listen, step((await post(listen, VOICE)).body, 'play'));
    expect(section.body).toContain('<Say language="en-US">Voice memo from Rose, 0:01.</Say><Play>');
    expect(section.body).not.toContain('Hi all');
    expect(section.body).not.toContain(`/media/${key}<`);
    const link = /<Play>https:\/\/loop\.example\.com([^<]+)<\/Play>/.exec(section.body)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBeDefined();
    const audio = await env.t.app.inject({ method: 'GET', url: link! });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    // Edited or stale links open nothing.
    expect((await env.t.app.inject({ method: 'GET', url: link!.replace(/t=[^&]+/, 't=AAAA') })).statusCode).toBe(404);
    const stale = link!.replace(/e=\d+/, `e=${Date.now() - 1000}`);
    expect((await env.t.app.inject({ method: 'GET', url: stale })).statusCode).toBe(404);
  });
});
