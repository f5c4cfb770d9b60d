/**
 * WhatsApp only once the person chose it (decision 0060), through the real routes, the real
 * `twilio` SDK and the fake Twilio REST API on 127.0.0.1.
 *
 * - [optin] https://www.twilio.com/docs/whatsapp/api: "WhatsApp requires that your application
 *   implement explicit user opt-ins to deliver messages over WhatsApp", gathered "during your
 *   application's sign-up flow, in your application's account settings, via SMS, etc."
 * - [window] https://www.twilio.com/docs/whatsapp/key-concepts: a person's message opens the
 *   24-hour window; outside it, approved templates (ContentSid, ContentVariables).
 * - [errors] https://www.twilio.com/docs/api/errors/63016 (outside the window).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { closeWhatsappWindow } from '../../src/messaging/record-status';
import { enqueueText } from '../../src/messaging/outbox';
import { signUp, uniquePhone } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { sendGroupMessage, testClock, useFakeTwilioApp } from '../helpers/messaging';
import { OUR_WHATSAPP, postWebhook, smsParams, whatsappParams } from '../helpers/twilio-fixtures';

const TEMPLATE = (digit: string) => `HX${digit.repeat(32)}`;
const clock = testClock(new Date('2026-07-01T15:00:00Z'));
const env = useFakeTwilioApp({
  clock,
  env: { TWILIO_WHATSAPP_TEMPLATES: `invitation=${TEMPLATE('1')},group_message=${TEMPLATE('2')},reminder=${TEMPLATE('3')}` },
});
const db = () => env.db();
const sentTo = (phone: string) => env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
const run = () => sweepUntilIdle(env.t.app.ctx);
const post = (params: Record<string, string>) =>
  postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
const optedInAt = async (phoneNumber: string) =>
  (await db().select({ at: users.whatsappOptedInAt }).from(users).where(eq(users.phoneNumber, phoneNumber)))[0]?.at ?? null;

describe('a number only the owner typed as WhatsApp [optin]', () => {
  it('is invited by SMS, gets SMS until its holder writes on WhatsApp, then WhatsApp (also after a 63016)', async () => {
    const owner = await signUp(env.t.app);
    const loop = await createLoopAs(env.t.app, owner.cookie, { name: 'Smith Family' });
    const phoneNumber = uniquePhone();
    const added = await env.t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner.cookie },
      payload: { firstName: 'Bob', lastName: 'Smith', phoneNumber, messagingPreference: 'whatsapp' },
    });
    expect(added.statusCode).toBe(201);
    await run();

    // The first message this phone ever gets is the SMS invitation, not a WhatsApp template.
    const [invitation] = sentTo(phoneNumber);
    expect(invitation?.params.To).toBe(phoneNumber);
    expect(invitation?.params.ContentSid).toBeUndefined();
    expect(invitation?.params.Body).toMatch(/^Loop: .* Reply YES to join, HELP for help, STOP to opt out\.$/);
    expect(await optedInAt(phoneNumber)).toBeNull();

    // YES by SMS joins the Loop, but is no choice of WhatsApp: a group message still goes by SMS.
    await post(smsParams({ accountSid: env.fake.accountSid, from: phoneNumber, body: 'YES' }));
    await run();
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic on Sunday' });
    await run();
    expect(sentTo(phoneNumber).every((s) => s.params.To === phoneNumber)).toBe(true);
    expect(await optedInAt(phoneNumber)).toBeNull();

    // The holder writes to Loop on WhatsApp: that is their choice, kept as the opt-in.
    await post(whatsappParams({ accountSid: env.fake.accountSid, from: phoneNumber, body: 'Hello from WhatsApp' }));
    await run();
    expect(await optedInAt(phoneNumber)).toEqual(clock());

    // A day later (outside the window) a group message goes on WhatsApp, as the approved template.
    clock.advance(25 * 3600_000);
    const before = sentTo(phoneNumber).length;
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic moved to Monday' });
    await run();
    const [template] = sentTo(phoneNumber).slice(before);
    expect(template?.params).toMatchObject({ To: `whatsapp:${phoneNumber}`, From: OUR_WHATSAPP, ContentSid: TEMPLATE('2') });

    // A 63016 closes the window, never the opt-in [errors]: the next text is still WhatsApp.
    await closeWhatsappWindow(db(), phoneNumber);
    expect(await optedInAt(phoneNumber)).not.toBeNull();
    const again = sentTo(phoneNumber).length;
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Bring chairs' });
    await run();
    expect(sentTo(phoneNumber).slice(again)[0]?.params.To).toBe(`whatsapp:${phoneNumber}`);
  });
});

describe("the person's own choice of WhatsApp [optin]", () => {
  it('at sign-up: their texts go on WhatsApp', async () => {
    const { user } = await signUp(env.t.app, { messagingPreference: 'whatsapp' });
    expect(await optedInAt(user.phoneNumber)).toEqual(clock());
    await db().transaction((tx) =>
      enqueueText(tx, {
        kind: 'reminder',
        userId: user.id,
        body: 'Time to share your news!',
        idempotencyKey: `opt-in:${user.id}`,
        templateVariables: { '1': 'Ada', '2': 'Smith Family' },
      }),
    );
    await run();
    expect(sentTo(user.phoneNumber).at(-1)?.params).toMatchObject({ To: `whatsapp:${user.phoneNumber}`, ContentSid: TEMPLATE('3') });
  });

  it('in their Profile: choosing WhatsApp is the opt-in, choosing SMS sends SMS', async () => {
    const { user, cookie } = await signUp(env.t.app);
    expect(await optedInAt(user.phoneNumber)).toBeNull();
    const chose = await env.t.app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: { cookie },
      payload: { messagingPreference: 'whatsapp' },
    });
    expect(chose.statusCode).toBe(200);
    expect(await optedInAt(user.phoneNumber)).toEqual(clock());
  });
});
