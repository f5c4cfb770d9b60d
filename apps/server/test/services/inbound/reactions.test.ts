/**
 * Reactions are not news (decision 0056): a member's reply of praise or emoji within two days of
 * a newsletter is kept under that issue, by text (the webhook, the worker, the fake Twilio) and
 * by e-mail reply; anything with news in it stays an update, as does a reaction three days on.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, newsletters, reactions, users } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { randomToken } from '../../../src/lib/tokens';
import { findReplyMember } from '../../../src/services/email-replies/find-reply-member';
import { receiveReply } from '../../../src/services/email-replies/receive-reply';
import { replyAddressFor } from '../../../src/services/email-replies/reply-address-for';
import { createLoop, createPerson, testClock, textsTo, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams, whatsappParams } from '../../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });
const DAY = 24 * 60 * 60 * 1000;

/** A member of a Loop whose newsletter went out `sentAgo` ms before now. */
async function afterIssue(sentAgo: number, channel: 'sms' | 'whatsapp' = 'sms') {
  const db = env.db();
  const person = await createPerson(db, { firstName: 'Carol', messagingPreference: channel });
  const loop = await createLoop(db, { name: 'Smith Family', memberIds: [person.id] });
  const sentAt = new Date(clock().getTime() - sentAgo);
  const [issue] = await db
    .insert(newsletters)
    .values({ loopId: loop.id, status: 'sent', urlId: randomToken(), content: 'Hello', periodEnd: sentAt, sentAt })
    .returning();
  if (!issue) throw new Error('no newsletter');
  return { person, loop, issue };
}

async function text(phone: string, body: string, channel: 'sms' | 'whatsapp' = 'sms') {
  const base = { accountSid: env.fake.accountSid, from: phone, body };
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', channel === 'sms' ? smsParams(base) : whatsappParams(base), {
    authToken: env.fake.authToken,
  });
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
}

const reactionsTo = async (newsletterId: number) =>
  (await env.db().select().from(reactions).where(eq(reactions.newsletterId, newsletterId))).map((r) => r.body);

describe('a reply that is only a reaction, within two days of a newsletter', () => {
  it('"Love it!!" a day after: kept under the issue, never an update, and the reply says where it went', async () => {
    const { person, loop, issue } = await afterIssue(DAY);
    await text(person.phoneNumber, 'Love it!!');
    expect(await reactionsTo(issue.id)).toEqual(['Love it!!']);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
    const replies = (await textsTo(env.db(), person.phoneNumber)).map((m) => m.body);
    expect(replies).toEqual([
      'Thanks Carol! Your reaction is under the latest newsletter of "Smith Family". Text news anytime for the next one.',
    ]);
  });

  it('a heart on WhatsApp, and "Qué lindo" in Spanish, are reactions too', async () => {
    const { person, loop, issue } = await afterIssue(2 * 60 * 60 * 1000, 'whatsapp');
    await text(person.phoneNumber, '❤️', 'whatsapp');
    await text(person.phoneNumber, 'Qué lindo!', 'whatsapp');
    expect(await reactionsTo(issue.id)).toEqual(['❤️', 'Qué lindo!']);
    expect(await updatesOf(env.db(), loop.id)).toEqual([]);
  });

  it('anything with news stays an update: "Love it! We\'re moving to Denver"', async () => {
    const { person, loop, issue } = await afterIssue(DAY);
    await text(person.phoneNumber, "Love it! We're moving to Denver");
    expect(await reactionsTo(issue.id)).toEqual([]);
    expect((await updatesOf(env.db(), loop.id)).map((u) => u.content)).toEqual(["Love it! We're moving to Denver"]);
  });

  it('three days after the newsletter, "Love it!!" is an update as before', async () => {
    const { person, loop, issue } = await afterIssue(3 * DAY);
    await text(person.phoneNumber, 'Love it!!');
    expect(await reactionsTo(issue.id)).toEqual([]);
    expect((await updatesOf(env.db(), loop.id)).map((u) => u.content)).toEqual(['Love it!!']);
  });

  it('an e-mail reply "Beautiful! 😍" to the newsletter is a reaction, as by text (decision 0049 path)', async () => {
    const { person, loop, issue } = await afterIssue(DAY);
    const db = env.db();
    const email = `carol${person.id}@example.com`;
    await db.update(users).set({ email }).where(eq(users.id, person.id));
    const [membership] = await db.select().from(members).where(eq(members.userId, person.id));
    const address = await replyAddressFor(db, membership?.id ?? 0, 'replies.example.com');
    const member = await findReplyMember(db, address, 'replies.example.com');
    if (!member) throw new Error('no member');
    const reply = {
      from: email,
      subject: 'Re: Smith Family',
      messageId: `<r${person.id}@example.com>`,
      text: 'Beautiful! 😍',
      attachments: [],
    };
    const check = { verdict: 'pass' as const, reason: '', summary: '', fromDomain: 'example.com' };
    const outcome = await receiveReply(env.t.app.ctx, { member, toAddress: address, reply, check, raw: Buffer.from('x') });
    expect(outcome).toEqual({ kind: 'accepted', status: 'processed' });
    expect(await reactionsTo(issue.id)).toEqual(['Beautiful! 😍']);
    expect(await updatesOf(db, loop.id)).toEqual([]);
  });
});
