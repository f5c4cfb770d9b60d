/**
 * The wording carriers review, through the API, the signed webhook, the worker and the real
 * `twilio` SDK against a fake Twilio on 127.0.0.1. Sources:
 *
 * - [ctia] CTIA Messaging Principles and Best Practices (2023), 5.1.2.1 (consent: who the sender
 *   is, what the messages are) and 5.1.3 (the consent request and its confirmation: the brand,
 *   message frequency, "Msg & data rates may apply", HELP and STOP; the HELP answer: the brand, a
 *   support contact and how to opt out). https://api.ctia.org/wp-content/uploads/2023/05/230523-CTIA-Messaging-Principles-and-Best-Practices-FINAL.pdf
 * - [segments] https://www.twilio.com/docs/glossary/what-sms-character-limit (160 GSM-7 characters
 *   make one segment).
 * - [templates] https://www.twilio.com/docs/content/using-variables-with-content-api (a
 *   template's numbered variables, ContentVariables).
 */
import { describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { smsSegments, isGsm7 } from '../../src/messaging/segments';
import { newsletterTexts } from '../../src/publishing/newsletter-texts';
import { lastCallText, reminderText } from '../../src/scheduling/reminder-text';
import { signUp, uniquePhone } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { createLoop, createPerson, sendGroupMessage, testClock, textsTo, useFakeTwilioApp } from '../helpers/messaging';
import { postWebhook, smsParams, whatsappParams } from '../helpers/twilio-fixtures';

const TEMPLATE = (digit: string) => `HX${digit.repeat(32)}`;
const SUPPORT = 'help@loop.example.com';
const clock = testClock(new Date('2026-05-04T15:00:00Z'));
const env = useFakeTwilioApp({
  clock,
  env: {
    SUPPORT_CONTACT: SUPPORT,
    TWILIO_WHATSAPP_TEMPLATES: `invitation=${TEMPLATE('6')},group_message=${TEMPLATE('3')}`,
  },
});
const db = () => env.db();

async function text(phone: string, body: string, channel: 'sms' | 'whatsapp' = 'sms') {
  const before = (await textsTo(db(), phone)).length;
  const params =
    channel === 'sms'
      ? smsParams({ accountSid: env.fake.accountSid, from: phone, body })
      : whatsappParams({ accountSid: env.fake.accountSid, from: phone, body });
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
  return (await textsTo(db(), phone)).slice(before).map((m) => m.body);
}
const sentTo = (phone: string) => env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
let ownerCache: Awaited<ReturnType<typeof signUp>> | undefined;
const owner = async () => (ownerCache ??= await signUp(env.t.app, { firstName: 'Alice', lastName: 'Abbot' }));
const add = async (loopId: number, phoneNumber: string, messagingPreference: 'sms' | 'whatsapp' = 'sms') => {
  const res = await env.t.app.inject({
    method: 'POST',
    url: `/api/loops/${loopId}/members`,
    headers: { cookie: (await owner()).cookie },
    payload: { firstName: 'Carol', lastName: 'Jones', phoneNumber, messagingPreference },
  });
  expect(res.statusCode).toBe(201);
};

describe('the invitation is a consent request carriers accept [ctia 5.1.2.1, 5.1.3]', () => {
  it('names the brand, the inviter, the quoted Loop, what comes and how often, the rates, YES, HELP and STOP, in one GSM-7 segment', async () => {
    const loop = await createLoopAs(env.t.app, (await owner()).cookie, { name: 'Smith Family' });
    const carol = uniquePhone();
    await add(loop.id, carol);
    const [invitation] = await textsTo(db(), carol);
    // New Loops: reminders Thursday and Sunday, a newsletter every two weeks: 2.5 texts a week.
    expect(invitation?.body).toBe(
      'Loop: Alice Abbot invited you to "Smith Family" (group news, about 3 msgs/wk). Msg & data rates may apply. Reply YES to join, HELP for help, STOP to opt out.',
    );
    const body = invitation?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(160);
    expect(isGsm7(body)).toBe(true);
    expect(smsSegments(body)).toBe(1);
  });

  it("says how often from the Loop's own reminder schedule and newsletter frequency", async () => {
    const loop = await createLoopAs(env.t.app, (await owner()).cookie, {
      name: 'Daily Walkers',
      frequency: 'weekly',
      reminderSchedule: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, time: '09:00' })),
    });
    const carol = uniquePhone();
    await add(loop.id, carol);
    // Five reminders, a newsletter and its day-before last call (decision 0043).
    expect((await textsTo(db(), carol))[0]?.body).toContain('"Daily Walkers" (group news, about 7 msgs/wk).');

    const quiet = await createLoopAs(env.t.app, (await owner()).cookie, { name: 'Quiet Ones', frequency: 'monthly', reminderSchedule: [] });
    const dan = uniquePhone();
    await add(quiet.id, dan);
    expect((await textsTo(db(), dan))[0]?.body).toContain('"Quiet Ones" (group news, about 2 msgs/mo).');
  });

  it('YES is confirmed with what they joined, how often, and how to stop [ctia 5.1.3]', async () => {
    const loop = await createLoopAs(env.t.app, (await owner()).cookie, { name: 'Book Club' });
    const carol = uniquePhone();
    await add(loop.id, carol);
    expect(await text(carol, 'YES')).toEqual([
      'Loop: you\'re in "Book Club" (about 3 msgs/wk). Text your news and photos to this number anytime. Reply HELP for help, STOP to opt out.',
    ]);
  });

  it('on WhatsApp, no invitation is sent again after YES: only "you\'re in" follows', async () => {
    // Names long enough that the invitation does not fit one template variable (200 characters).
    const longOwner = await signUp(env.t.app, { firstName: 'Alexandrina', lastName: 'Abbot-Worthington' });
    const loop = await createLoopAs(env.t.app, longOwner.cookie, { name: 'The Extended Abbot Family Reunion Crew' });
    const carol = uniquePhone();
    // Carol chose WhatsApp herself before (decision 0060): her invitation goes on WhatsApp.
    await createPerson(db(), { phoneNumber: carol, firstName: 'Carol', messagingPreference: 'whatsapp' });
    const res = await env.t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: longOwner.cookie },
      payload: { firstName: 'Carol', lastName: 'Jones', phoneNumber: carol, messagingPreference: 'whatsapp' },
    });
    expect(res.statusCode).toBe(201);
    await sweepUntilIdle(env.t.app.ctx);
    const [invitation] = sentTo(carol);
    expect(invitation?.params.ContentSid).toBe(TEMPLATE('6'));
    expect((await textsTo(db(), carol))[0]?.body.length).toBeGreaterThan(200);
    const replies = await text(carol, 'YES', 'whatsapp');
    await sweepUntilIdle(env.t.app.ctx);
    expect(replies).toEqual([expect.stringMatching(/^Loop: you're in "The Extended Abbot Family Reunion Crew"/)]);
    expect(
      sentTo(carol)
        .slice(1)
        .map((s) => s.params.Body),
    ).toEqual(replies);
  });
});

describe('HELP names the brand, a support contact and how to stop [ctia 5.1.3]', () => {
  it('on WhatsApp, from SUPPORT_CONTACT', async () => {
    const person = await createPerson(db(), { messagingPreference: 'whatsapp' });
    await createLoop(db(), { name: 'Help Loop', memberIds: [person.id] });
    const [answer] = await text(person.phoneNumber, 'HELP', 'whatsapp');
    expect(answer).toMatch(/^Loop: /);
    expect(answer).toContain(`Help: ${SUPPORT}.`);
    expect(answer).toContain('STOP to opt out');
    expect(answer).toContain('Msg & data rates may apply.');
  });

  it('on SMS when Loop answers keywords (TWILIO_KEYWORD_REPLIES=loop)', async () => {
    const person = await createPerson(db());
    const app = await env.t.rebuild({ TWILIO_KEYWORD_REPLIES: 'loop' });
    await postWebhook(
      app,
      '/api/webhooks/twilio/messages',
      smsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'help' }),
      {
        authToken: env.fake.authToken,
      },
    );
    await sweepUntilIdle(app.ctx);
    const [answer] = (await textsTo(db(), person.phoneNumber)).map((m) => m.body);
    expect(answer).toMatch(/^Loop: .*STOP to opt out.*Help: help@loop\.example\.com\./);
  });
});

describe('group messages say whose they are', () => {
  it("an SMS group message starts with the quoted Loop name and the sender's first name (decision 0042)", async () => {
    const person = await createPerson(db(), { firstName: 'Alice' });
    const loop = await createLoop(db(), { name: 'Smith Family', memberIds: [person.id] });
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic moved to Sunday' });
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(person.phoneNumber).map((s) => s.params.Body)).toEqual(['"Smith Family" from Alice: Picnic moved to Sunday']);
  });

  it("outside WhatsApp's window the template gets {{1}} the Loop name and {{2}} the sender and the start of the message [templates]", async () => {
    const person = await createPerson(db(), { firstName: 'Alice', messagingPreference: 'whatsapp' });
    const loop = await createLoop(db(), { name: 'Smith Family', memberIds: [person.id] });
    await sendGroupMessage(db(), { loopId: loop.id, message: `Picnic moved to Sunday.\nBring ${'a chair, '.repeat(40)}` });
    await sweepUntilIdle(env.t.app.ctx);
    const [sent] = sentTo(person.phoneNumber);
    expect(sent?.params.ContentSid).toBe(TEMPLATE('3'));
    const variables = JSON.parse(String(sent?.params.ContentVariables)) as Record<string, string>;
    expect(variables['1']).toBe('Smith Family');
    expect(variables['2']).toMatch(/^Alice: Picnic moved to Sunday\. Bring a chair, /);
    expect(variables['2']?.length).toBeLessThanOrEqual(200);
  });
});

describe('every text quotes the names in it', () => {
  const phishy = 'URGENT bank: call 555';
  it('reminders, newsletter links and sneak peeks', () => {
    expect(reminderText(phishy, [phishy], { text: 'What made you laugh this week?', own: false })).toMatch(
      /^Hi "URGENT bank: call 555"! What made you laugh this week\? Time for your "URGENT bank: call 555" update\./,
    );
    // The owner's own question is someone's typing: quoted, one line (decision 0043).
    expect(reminderText('Pia', ['Smiths'], { text: 'Who saw\n"Grandma"?', own: true })).toBe(
      `Hi Pia! Your organizer asks: "Who saw 'Grandma'?" Time for your "Smiths" update. Just reply with your news and photos.`,
    );
    expect(lastCallText(phishy, [phishy])).toMatch(
      /^Hi "URGENT bank: call 555"! Last call: the "URGENT bank: call 555" newsletter goes out tomorrow\./,
    );
    expect(newsletterTexts.newsletter(phishy, 'https://x.example/n/1').body).toMatch(/^The "URGENT bank: call 555" newsletter is here!/);
    expect(newsletterTexts.sneakPeek(phishy, '2 updates', [phishy, 'Bo'], 'https://x.example/n/1').body).toMatch(
      /^Sneak peek from "URGENT bank: call 555": 2 updates from "URGENT bank: call 555" and Bo so far!/,
    );
  });
});
