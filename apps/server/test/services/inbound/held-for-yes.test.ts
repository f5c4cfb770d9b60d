/**
 * A person invited and not yet in who texts before answering (decision 0033's one yes, one Loop):
 * told what they were invited to and to reply YES, their text kept, unshared, until they do; then
 * it goes to the Loop they said yes to, as an update. Through the webhook, worker and fake Twilio.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, messages } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { createLoop, createPerson, testClock, textsTo, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams } from '../../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });

async function invited(...names: string[]) {
  const db = env.db();
  const inviter = await createPerson(db, { firstName: 'Alice' });
  const person = await createPerson(db, { firstName: 'Pat' });
  const loops = [];
  for (const name of names) {
    const loop = await createLoop(db, { name, memberIds: [], creatorId: inviter.id });
    await db.insert(members).values({ loopId: loop.id, userId: person.id, status: 'pending', invitedById: inviter.id, invitedAt: clock() });
    loops.push(loop);
  }
  return { person, loops };
}

async function text(phone: string, body: string) {
  const base = { accountSid: env.fake.accountSid, from: phone, body };
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', smsParams(base), { authToken: env.fake.authToken });
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
  return (await textsTo(env.db(), phone)).map((m) => m.body);
}

describe('a text from someone invited, before YES', () => {
  it('"Hello!" is answered with the invitation, kept, and becomes an update in the Loop once they reply YES', async () => {
    const { person, loops } = await invited('Smith Family');
    const told = await text(person.phoneNumber, 'Hello!');
    expect(told).toEqual([
      'Loop: Alice Lovelace invited you to "Smith Family". Reply YES to join, and your text will go to the Loop you join. STOP to opt out.',
    ]);
    expect(told.join()).not.toContain("isn't in a Loop yet");
    expect(await updatesOf(env.db(), loops[0]!.id)).toEqual([]);

    // A second text the same day waits too, without a second answer.
    expect(await text(person.phoneNumber, 'Is this the family thing?')).toHaveLength(1);

    await text(person.phoneNumber, 'YES');
    expect((await updatesOf(env.db(), loops[0]!.id)).map((u) => u.content)).toEqual(['Hello!', 'Is this the family thing?']);
    const [membership] = await env.db().select().from(members).where(eq(members.userId, person.id));
    expect(membership?.status).toBe('active');
  });

  it('with two invitations, the text goes only to the Loop they pick', async () => {
    const { person, loops } = await invited('Book Club', 'Smith Family');
    expect(await text(person.phoneNumber, 'Hi all')).toEqual([
      'Loop: you\'re invited to "Book Club" (from Alice Lovelace) and "Smith Family" (from Alice Lovelace). Reply YES to join, and your text will go to the Loop you join. STOP to opt out.',
    ]);
    await text(person.phoneNumber, 'YES');
    await text(person.phoneNumber, '2');
    expect(await updatesOf(env.db(), loops[0]!.id)).toEqual([]);
    expect((await updatesOf(env.db(), loops[1]!.id)).map((u) => u.content)).toEqual(['Hi all']);
  });

  it('a text that was never followed by YES stays unshared', async () => {
    const { person, loops } = await invited('Smith Family');
    await text(person.phoneNumber, 'Hello!');
    const [row] = await env.db().select().from(messages).where(eq(messages.fromAddress, person.phoneNumber));
    expect(row?.status).toBe('ignored');
    expect(await updatesOf(env.db(), loops[0]!.id)).toEqual([]);
  });
});
