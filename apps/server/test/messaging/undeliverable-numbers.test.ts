/**
 * Numbers that cannot receive texts, through the real `twilio` SDK against a fake Twilio on
 * 127.0.0.1, the status webhook and the owner's API. Sources, Twilio's error dictionary:
 *
 * - https://www.twilio.com/docs/api/errors/30005 (unknown destination handset)
 * - https://www.twilio.com/docs/api/errors/30006 (landline or unreachable carrier)
 * - https://www.twilio.com/docs/api/errors/21614 ('To' number is not a valid mobile number)
 * - https://www.twilio.com/docs/api/errors/63024 (invalid message recipient: not a WhatsApp user)
 * - https://www.twilio.com/docs/messaging/guides/track-outbound-message-status (ErrorCode in a
 *   status callback)
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { LoopDetail, LoopMember } from '@loop/shared/loops';
import { messages, undeliverablePhones, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { DAY_MS } from '../../src/lib/clock';
import { optOutPhone } from '../../src/messaging/opt-outs';
import { signUp, uniquePhone } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { sendGroupMessage, testClock, textsTo, useFakeTwilioApp } from '../helpers/messaging';
import { postWebhook, smsParams, statusParams, whatsappParams } from '../helpers/twilio-fixtures';

const clock = testClock(new Date('2026-05-04T15:00:00Z'));
const env = useFakeTwilioApp({ clock });
const db = () => env.db();
const run = () => sweepUntilIdle(env.t.app.ctx);
const attemptsTo = (phone: string) => env.fake.attempts.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
let ownerCache: Awaited<ReturnType<typeof signUp>> | undefined;
const owner = async () => (ownerCache ??= await signUp(env.t.app, { firstName: 'Olive', lastName: 'Owner' }));
const post = (params: Record<string, string>, path: string) => postWebhook(env.t.app, path, params, { authToken: env.fake.authToken });

/** A Loop with one text-only member who said YES on `channel`; answers the member's phone and the Loop. */
async function activeMember(channel: 'sms' | 'whatsapp' = 'sms') {
  const { cookie } = await owner();
  const loop = await createLoopAs(env.t.app, cookie, { name: `Family ${Math.random().toString(36).slice(2, 6)}` });
  const phone = uniquePhone();
  const res = await env.t.app.inject({
    method: 'POST',
    url: `/api/loops/${loop.id}/members`,
    headers: { cookie },
    payload: { firstName: 'Lena', lastName: 'Land', phoneNumber: phone, messagingPreference: channel },
  });
  expect(res.statusCode).toBe(201);
  const yes =
    channel === 'sms'
      ? smsParams({ accountSid: env.fake.accountSid, from: phone, body: 'YES' })
      : whatsappParams({ accountSid: env.fake.accountSid, from: phone, body: 'YES' });
  await post(yes, '/api/webhooks/twilio/messages');
  await run();
  // The owner is a member too: out of the way, so each failure the fake answers is the member's.
  await optOutPhone(db(), (await owner()).user.phoneNumber, 'test', clock());
  return { phone, loop, cookie };
}
const memberOf = async (cookie: string, loopId: number, phone: string): Promise<LoopMember | undefined> =>
  (await env.t.app.inject({ url: `/api/loops/${loopId}`, headers: { cookie } }))
    .json<LoopDetail>()
    .members.find((m) => m.user.phoneNumber === phone);

describe('a number the carrier says cannot receive texts is texted no more, and the owner sees why', () => {
  it('30006 in the create answer: marked; the next group message makes no attempt; "Can\'t receive texts (landline)"', async () => {
    const { phone, loop, cookie } = await activeMember();
    env.fake.failNext({ status: 400, code: 30006, message: 'Landline or unreachable carrier' });
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic moved to Sunday' });
    await run();
    const tries = attemptsTo(phone).length;
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic is on!' });
    await run();
    expect(attemptsTo(phone).length).toBe(tries);
    const member = await memberOf(cookie, loop.id, phone);
    expect(member).toMatchObject({ state: 'undeliverable', lastError: "Can't receive texts (landline)", resendAt: null });
  });

  it('30005 in a status callback, and 21614 in the create answer, mark the number too', async () => {
    const first = await activeMember();
    await sendGroupMessage(db(), { loopId: first.loop.id, message: 'Hello' });
    await run();
    const [row] = (await textsTo(db(), first.phone)).filter((m) => m.kind === 'group_message');
    const callback = statusParams({
      accountSid: env.fake.accountSid,
      messageSid: row?.providerMessageId ?? '',
      status: 'undelivered',
      to: first.phone,
      errorCode: '30005',
    });
    expect((await post(callback, '/api/webhooks/twilio/status')).statusCode).toBe(204);
    expect(await memberOf(first.cookie, first.loop.id, first.phone)).toMatchObject({
      state: 'undeliverable',
      lastError: "Can't receive texts (unknown number)",
    });

    const second = await activeMember();
    env.fake.failNext({ status: 400, code: 21614, message: "'To' number is not a valid mobile number" });
    await sendGroupMessage(db(), { loopId: second.loop.id, message: 'Hello' });
    await run();
    expect(await memberOf(second.cookie, second.loop.id, second.phone)).toMatchObject({
      state: 'undeliverable',
      lastError: "Can't receive texts (not a mobile number)",
    });
  });

  it('editing the number clears the mark: the new number is invited and must say YES', async () => {
    const { phone, loop, cookie } = await activeMember();
    env.fake.failNext({ status: 400, code: 30006, message: 'Landline or unreachable carrier' });
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Hello' });
    await run();
    const member = await memberOf(cookie, loop.id, phone);
    expect(member?.state).toBe('undeliverable');
    const mobile = uniquePhone();
    clock.advance(60_000);
    const res = await env.t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}/members/${member?.id}`,
      headers: { cookie },
      payload: { phoneNumber: mobile },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'pending', user: { phoneNumber: mobile } });
    expect((await textsTo(db(), mobile)).map((m) => m.kind)).toEqual(['invitation']);
    expect(await db().select().from(undeliverablePhones).where(eq(undeliverablePhones.phoneNumber, phone))).toEqual([]);
  });
});

describe('63024: a number without WhatsApp gets SMS from then on, and the owner is told', () => {
  it('in the create answer: the text goes by SMS at once, and later texts too', async () => {
    const { phone, loop, cookie } = await activeMember('whatsapp');
    env.fake.failNext({ status: 400, code: 63024, message: 'Invalid message recipient' });
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Picnic moved to Sunday' });
    await run();
    const sent = env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);
    expect(sent.at(-1)?.params.To).toBe(phone);
    expect(sent.at(-1)?.params.Body).toMatch(/Picnic moved to Sunday$/);
    const [user] = await db().select().from(users).where(eq(users.phoneNumber, phone));
    expect(user?.messagingPreference).toBe('sms');
    expect(await memberOf(cookie, loop.id, phone)).toMatchObject({
      state: 'active',
      user: { messagingPreference: 'sms' },
      deliveryNote: 'WhatsApp says this number has no WhatsApp account, so Loop texts it by SMS.',
    });
  });

  it('in a status callback: the text is sent again by SMS', async () => {
    const { phone, loop } = await activeMember('whatsapp');
    await sendGroupMessage(db(), { loopId: loop.id, message: 'Bring chairs' });
    await run();
    const [row] = (await textsTo(db(), phone)).filter((m) => m.kind === 'group_message');
    const callback = statusParams({
      accountSid: env.fake.accountSid,
      messageSid: row?.providerMessageId ?? '',
      status: 'failed',
      to: `whatsapp:${phone}`,
      errorCode: '63024',
    });
    expect((await post(callback, '/api/webhooks/twilio/status')).statusCode).toBe(204);
    await run();
    const again = env.fake.sent.filter((s) => s.params.To === phone);
    expect(again.at(-1)?.params.Body).toMatch(/Bring chairs$/);
    const [after] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, row?.id ?? 0));
    expect(after).toMatchObject({ channel: 'sms', status: 'sent' });
  });
});

describe('a number in no Loop gets at most one reply a day (two bots must not answer each other forever)', () => {
  it('three texts in a day: one answer; the next day: one more', async () => {
    const stranger = uniquePhone();
    for (const body of ['Hi', 'Is this Anna?', 'Your order has shipped']) {
      await post(smsParams({ accountSid: env.fake.accountSid, from: stranger, body }), '/api/webhooks/twilio/messages');
      await run();
    }
    expect(env.fake.sent.filter((s) => s.params.To === stranger)).toHaveLength(1);
    clock.advance(DAY_MS + 1000);
    await post(smsParams({ accountSid: env.fake.accountSid, from: stranger, body: 'Hi again' }), '/api/webhooks/twilio/messages');
    await run();
    expect(env.fake.sent.filter((s) => s.params.To === stranger)).toHaveLength(2);
  });
});
