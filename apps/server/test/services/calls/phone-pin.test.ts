import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, users } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { replies } from '../../../src/messaging/replies';
import { checkPhonePin } from '../../../src/services/calls/phone-pin';
import { signUp } from '../../helpers/app';
import { createLoop, createPerson, textsTo, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams } from '../../helpers/twilio-fixtures';

/** Setting the phone line's PIN (decision 0067): on Profile with the password, or by texting "PIN 4821". */
const env = useFakeTwilioApp();
const SECRET = 'test-secret-test-secret-test-secret-0123';
const check = (userId: number, pin: string) => checkPhonePin(env.db(), { secret: SECRET, userId, pin, now: new Date() });

describe('PUT /api/user/phone-pin', () => {
  const put = (payload: unknown, cookie?: string) =>
    env.t.app.inject({ method: 'PUT', url: '/api/user/phone-pin', payload: payload as object, headers: cookie ? { cookie } : {} });

  it('sets the PIN with the password in use, and lifts a lockout', async () => {
    const { user, cookie, account } = await signUp(env.t.app);
    await env
      .db()
      .update(users)
      .set({ phonePinFailures: 4, phonePinLockedUntil: new Date(Date.now() + 3_600_000) })
      .where(eq(users.id, user.id));
    const res = await put({ pin: '4821', currentPassword: account.password }, cookie);
    expect(res.statusCode).toBe(204);
    expect(await check(user.id, '4821')).toBe('right');
    expect(await check(user.id, '4822')).toBe('wrong');
  });

  it('refuses a stranger, a wrong password and a PIN that is not four digits', async () => {
    const { user, cookie, account } = await signUp(env.t.app);
    expect((await put({ pin: '4821', currentPassword: account.password })).statusCode).toBe(401);
    const wrong = await put({ pin: '4821', currentPassword: 'not-the-password' }, cookie);
    expect(wrong.statusCode).toBe(400);
    for (const pin of ['482', '48211', '48a1', ' 4821', 4821]) {
      const res = await put({ pin, currentPassword: account.password }, cookie);
      expect([pin, res.statusCode]).toEqual([pin, 400]);
      expect(res.json<{ message: string }>().message).toMatch(/four digits|Enter four digits|expected string/i);
    }
    expect(await check(user.id, '4821')).toBe('unset');
  });
});

describe('"PIN 4821" by text', () => {
  const text = async (from: string, body: string) => {
    await postWebhook(env.t.app, '/api/webhooks/twilio/messages', smsParams({ accountSid: env.fake.accountSid, from, body }), {
      authToken: env.fake.authToken,
    });
    await sweepUntilIdle(env.t.app.ctx);
  };

  it("sets a member's PIN, answers the phone, and keeps no digits in the text's row", async () => {
    const db = env.db();
    const rose = await createPerson(db, { firstName: 'Rose' });
    await createLoop(db, { name: 'Smith Family', memberIds: [rose.id] });
    await text(rose.phoneNumber, ' pin 4821 ');
    expect(await check(rose.id, '4821')).toBe('right');
    expect((await textsTo(db, rose.phoneNumber)).map((m) => m.body)).toContain(replies.phonePinSet());
    const [row] = await db.select().from(messages).where(eq(messages.fromAddress, rose.phoneNumber));
    expect(row?.body).toBe('PIN ****');
    expect(JSON.stringify(row)).not.toContain('4821');
  });

  it('sets nothing for a number Loop does not know, and shares the text with no Loop', async () => {
    const stranger = '+12025550177';
    await text(stranger, 'PIN 1234');
    expect((await textsTo(env.db(), stranger)).map((m) => m.body)).toEqual([replies.joinHelp()]);
  });
});
