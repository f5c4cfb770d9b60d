/**
 * Opt-out in any reasonable words, through the real webhook, worker and `twilio` SDK against the
 * fake Twilio (decision 0034). Sources:
 *
 * - [fcc] 47 CFR 64.1200(a)(10), in force since April 11, 2025: consent may be revoked "using any
 *   reasonable means"; "stop", "quit", "end", "revoke", "opt out", "cancel" or "unsubscribe" in
 *   reply to a text are reasonable by rule; one confirmation text (no more) within 5 minutes.
 * - [stop] https://help.twilio.com/articles/223134027 (Twilio's opt-out words on SMS; "Only
 *   single-word messages will trigger the block"; Twilio then answers itself)
 * - [aoo] https://www.twilio.com/docs/messaging/tutorials/advanced-opt-out and the inbound
 *   webhook's OptOutType parameter (https://www.twilio.com/docs/messaging/guides/webhook-request):
 *   set when Advanced Opt-Out handled the word and sent its own confirmation, WhatsApp included,
 *   and even when its reply for that type was cleared (README: the operator then sets
 *   TWILIO_KEYWORD_REPLIES=loop).
 *
 * Other languages, short requests, unclear texts and HELP in any words: decision 0055.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { isOptedOut } from '../../src/messaging/opt-outs';
import { createLoop, createPerson, testClock, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { postWebhook, smsParams, whatsappParams } from '../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });

async function member(channel: 'sms' | 'whatsapp' = 'sms') {
  const person = await createPerson(env.db(), { messagingPreference: channel });
  const loop = await createLoop(env.db(), { name: 'Smith Family', memberIds: [person.id] });
  return { person, loop };
}

async function text(phone: string, body: string, channel: 'sms' | 'whatsapp' = 'sms', extra: Record<string, string> = {}) {
  const base = { accountSid: env.fake.accountSid, from: phone, body };
  const params = { ...(channel === 'sms' ? smsParams(base) : whatsappParams(base)), ...extra };
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
}

const sentTo = (phone: string) =>
  env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`).map((s) => s.params.Body);
const CONFIRMATION = /^Loop: you're unsubscribed/;

describe('an opt-out in other words than Twilio takes [fcc]', () => {
  it.each(['Stop.', 'Opt out', 'Please stop texting me', 'unsubscribe me', 'Remove me', 'leave me alone', "Don't text me anymore"])(
    'SMS "%s": opted out, never an update, one confirmation from Loop (Twilio took no single word) [stop]',
    async (body) => {
      const { person, loop } = await member();
      await text(person.phoneNumber, body);
      expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
      expect(await updatesOf(env.db(), loop.id)).toEqual([]);
      expect(sentTo(person.phoneNumber)).toEqual([expect.stringMatching(CONFIRMATION)]);

      // Said again: no second confirmation [fcc: one confirmation].
      await text(person.phoneNumber, body);
      expect(sentTo(person.phoneNumber)).toHaveLength(1);
    },
  );

  it('WhatsApp "Please stop texting me": opted out, one confirmation, no update', async () => {
    const { person, loop } = await member('whatsapp');
    await text(person.phoneNumber, 'Please stop texting me', 'whatsapp');
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    expect(sentTo(person.phoneNumber)).toEqual([expect.stringMatching(CONFIRMATION)]);
  });

  it('a sentence that only contains the word stays an update: "We stopped at the lake", "Stop by on Sunday"', async () => {
    const { person, loop } = await member();
    await text(person.phoneNumber, 'We stopped at the lake');
    await text(person.phoneNumber, 'Stop by on Sunday');
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(false);
    expect((await updatesOf(env.db(), loop.id)).map((u) => u.content)).toEqual(['We stopped at the lake', 'Stop by on Sunday']);
  });
});

describe('one confirmation at most: none where Twilio answered', () => {
  it('SMS "STOP": Twilio answered [stop], Loop sends nothing', async () => {
    const { person } = await member();
    await text(person.phoneNumber, 'STOP');
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(sentTo(person.phoneNumber)).toEqual([]);
  });

  it('WhatsApp with OptOutType=STOP: Advanced Opt-Out answered [aoo], Loop sends nothing (before: a second confirmation)', async () => {
    const { person, loop } = await member('whatsapp');
    await text(person.phoneNumber, 'stop', 'whatsapp', { OptOutType: 'STOP' });
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    expect(sentTo(person.phoneNumber)).toEqual([]);
  });

  it('SMS in a custom word with OptOutType=STOP ("arrêt"): opted out, Loop sends nothing [aoo]', async () => {
    const { person } = await member();
    await text(person.phoneNumber, 'arrêt', 'sms', { OptOutType: 'STOP' });
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(sentTo(person.phoneNumber)).toEqual([]);
  });
});

const ASKED = "Loop didn't share that text. Reply STOP to stop all texts from Loop, or send your news again.";

describe('an opt-out in another language or in a short request [fcc]', () => {
  it.each([
    'PARAR',
    'ALTO',
    'BAJA',
    'ARRET',
    'Arrêt.',
    'STOPP',
    'Basta!',
    'stop it',
    'Stop texting me about this loop',
    'Take me out of this group',
    'Sácame de este grupo',
    '🛑',
  ])('SMS %j: opted out, never an update, one confirmation from Loop (Twilio took no word of its own) [stop]', async (body) => {
    const { person, loop } = await member();
    await text(person.phoneNumber, body);
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    expect(sentTo(person.phoneNumber)).toEqual([expect.stringMatching(CONFIRMATION)]);
  });

  it('WhatsApp "Desabonner": opted out, one confirmation, no update', async () => {
    const { person, loop } = await member('whatsapp');
    await text(person.phoneNumber, 'Désabonner', 'whatsapp');
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    expect(sentTo(person.phoneNumber)).toEqual([expect.stringMatching(CONFIRMATION)]);
  });

  it('"we can\'t stop laughing" and "don\'t stop" stay news', async () => {
    const { person, loop } = await member();
    await text(person.phoneNumber, "we can't stop laughing");
    await text(person.phoneNumber, "don't stop");
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(false);
    expect((await updatesOf(env.db(), loop.id)).map((u) => u.content)).toEqual(["we can't stop laughing", "don't stop"]);
  });
});

describe('a text whose meaning is unclear is held, never published, and asked about once', () => {
  it('"Stop texting me about Smith Family", then "✋": kept unshared, one question, STOP afterwards works', async () => {
    const { person, loop } = await member();
    await text(person.phoneNumber, 'Stop texting me about Smith Family');
    await text(person.phoneNumber, '✋');
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(false);
    expect(sentTo(person.phoneNumber)).toEqual([ASKED]);
    const held = await env.db().select().from(messages).where(eq(messages.fromAddress, person.phoneNumber));
    expect(held.map((m) => [m.status, m.error])).toEqual([
      ['ignored', expect.stringMatching(/^Not shared: it might ask to stop/)],
      ['ignored', expect.stringMatching(/^Not shared: it might ask to stop/)],
    ]);

    await text(person.phoneNumber, 'STOP');
    expect(await isOptedOut(env.db(), person.phoneNumber)).toBe(true);
  });

  it('news sent again after the question is shared', async () => {
    const { person, loop } = await member();
    await text(person.phoneNumber, 'Stop the texts about the party');
    await text(person.phoneNumber, 'The party is on Saturday at 6');
    expect((await updatesOf(env.db(), loop.id)).map((u) => u.content)).toEqual(['The party is on Saturday at 6']);
  });
});

describe('HELP in any words and languages is answered, never published', () => {
  it.each(['help me please', 'AYUDA', 'Aidez-moi', 'Hilfe'])(
    'SMS %j: Loop answers HELP (Twilio takes HELP and INFO alone) [stop]',
    async (body) => {
      const { person, loop } = await member();
      await text(person.phoneNumber, body);
      expect(sentTo(person.phoneNumber)).toEqual([expect.stringMatching(/^Loop: group news by text\./)]);
      expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    },
  );
});

describe('with TWILIO_KEYWORD_REPLIES=loop', () => {
  const loopEnv = useFakeTwilioApp({ clock, env: { TWILIO_KEYWORD_REPLIES: 'loop' } });

  it("HELP tagged OptOutType=HELP is answered by Loop: the operator cleared Twilio's HELP reply [aoo]", async () => {
    const person = await createPerson(loopEnv.db());
    await createLoop(loopEnv.db(), { name: 'Smith Family', memberIds: [person.id] });
    const base = { accountSid: loopEnv.fake.accountSid, from: person.phoneNumber, body: 'HELP' };
    const res = await postWebhook(
      loopEnv.t.app,
      '/api/webhooks/twilio/messages',
      { ...smsParams(base), OptOutType: 'HELP' },
      {
        authToken: loopEnv.fake.authToken,
      },
    );
    expect(res.statusCode).toBe(200);
    await sweepUntilIdle(loopEnv.t.app.ctx);
    const sent = loopEnv.fake.sent.filter((s) => s.params.To === person.phoneNumber).map((s) => s.params.Body);
    expect(sent).toEqual([expect.stringMatching(/^Loop: group news by text\./)]);
  });
});
