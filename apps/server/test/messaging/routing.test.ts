import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, phoneOptOuts } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { uniquePhone } from '../helpers/app';
import { createLoop, createPerson, testClock, textsTo, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { postWebhook, smsParams } from '../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });
const { db } = env;

/** Texts `body` from `phone` through the webhook and the worker; returns the replies. */
async function text(phone: string, body: string, extra: Record<string, string> = {}) {
  const res = await postWebhook(
    env.t.app,
    '/api/webhooks/twilio/messages',
    { ...smsParams({ accountSid: env.fake.accountSid, from: phone, body }), ...extra },
    { authToken: env.fake.authToken },
  );
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
  return (await textsTo(db(), phone)).map((m) => m.body);
}

async function personIn(...loopNames: string[]) {
  const person = await createPerson(db(), { firstName: 'Grace' });
  const loops = [];
  for (const name of loopNames) loops.push(await createLoop(db(), { name, memberIds: [person.id] }));
  return { person, loops };
}

describe('routing', () => {
  it('a member of one Loop: the update goes there', async () => {
    const { person, loops } = await personIn('Hikers');
    const replies = await text(person.phoneNumber, 'Summit reached');
    expect((await updatesOf(db(), loops[0]!.id)).map((u) => u.content)).toEqual(['Summit reached']);
    expect(replies).toEqual(['Thanks Grace! Your update went to "Hikers".']);
  });

  it('a member of several Loops: all of them when none is named', async () => {
    const { person, loops } = await personIn('Alpha', 'Beta', 'Gamma');
    const replies = await text(person.phoneNumber, 'Hello everyone');
    for (const loop of loops) expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['Hello everyone']);
    expect(replies).toEqual(['Thanks Grace! Your update went to "Alpha", "Beta" and "Gamma".']);
  });

  it('several Loops, `#name` anywhere: only that Loop, the name taken out', async () => {
    const { person, loops } = await personIn('Équipe Rouge', 'Blue Team');
    const replies = await text(person.phoneNumber, 'Won the match #equipe rouge !');
    expect((await updatesOf(db(), loops[0]!.id)).map((u) => u.content)).toEqual(['Won the match!']);
    expect(await updatesOf(db(), loops[1]!.id)).toEqual([]);
    expect(replies).toEqual(['Thanks Grace! Your update went to "Équipe Rouge".']);
  });

  it('several Loops, `name:` at the start: only that Loop, case and accents ignored', async () => {
    const { person, loops } = await personIn('Équipe Rouge', 'Blue Team');
    await text(person.phoneNumber, 'BLUE TEAM: practice moved to 7');
    expect((await updatesOf(db(), loops[1]!.id)).map((u) => u.content)).toEqual(['practice moved to 7']);
    expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
  });

  it('several Loops, a name that matches none: a reply listing their Loops, nothing stored', async () => {
    const { person, loops } = await personIn('Alpha', 'Beta');
    const replies = await text(person.phoneNumber, 'Gamma: hello');
    for (const loop of loops) expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect(replies[0]).toMatch(/^You're not in a Loop called "Gamma", so nothing was shared\. Your Loops: "Alpha" and "Beta"\./);
    const [inbound] = await db().select().from(messages).where(eq(messages.fromAddress, person.phoneNumber));
    expect(inbound?.status).toBe('ignored');
  });

  it('an unknown sender: a friendly reply on how to join, nothing stored', async () => {
    const phone = uniquePhone();
    const replies = await text(phone, 'Hi is this Loop?');
    expect(replies).toEqual([expect.stringContaining('Ask the person who runs your group')]);
    const [inbound] = await db().select().from(messages).where(eq(messages.fromAddress, phone));
    expect(inbound).toMatchObject({ status: 'ignored', userId: null });
  });

  it('a person in no Loop gets the same joining help', async () => {
    const person = await createPerson(db());
    expect(await text(person.phoneNumber, 'hello?')).toEqual([expect.stringContaining('invite link')]);
  });

  it('a paused Loop still keeps updates', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Sleepy', memberIds: [person.id], paused: true });
    await text(person.phoneNumber, 'Still here');
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['Still here']);
  });

  it('a text that is only a Loop name stores nothing and says so', async () => {
    const { person, loops } = await personIn('Alpha', 'Beta');
    expect(await text(person.phoneNumber, '#alpha')).toEqual([expect.stringContaining('Your text was empty')]);
    expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
  });
});

describe('keywords', () => {
  const optedOut = async (phone: string) => (await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phone))).length > 0;

  it.each(['STOP', 'stopall', 'Unsubscribe', 'end', 'QUIT', 'cancel', 'OPTOUT', 'revoke'])(
    '%s opts the phone out, silently, and is never an update',
    async (word) => {
      const { person, loops } = await personIn('Keyword Loop');
      expect(await text(person.phoneNumber, word)).toEqual([]);
      expect(await optedOut(person.phoneNumber)).toBe(true);
      expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
    },
  );

  // On SMS Twilio's own keyword handling answers START and HELP (TWILIO_KEYWORD_REPLIES=twilio,
  // the default): Loop applies the word and stays quiet, so nobody gets two answers.
  it.each(['START', 'unstop', 'Yes'])('%s opts the phone back in; Twilio answers it on SMS, Loop does not', async (word) => {
    const { person, loops } = await personIn('Keyword Loop');
    await text(person.phoneNumber, 'STOP');
    const replies = await text(person.phoneNumber, word);
    expect(await optedOut(person.phoneNumber)).toBe(false);
    expect(replies).toEqual([]);
    expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
  });

  it('OptOutType=START opts in without a second answer (Twilio sent its own)', async () => {
    const { person } = await personIn('Keyword Loop');
    await text(person.phoneNumber, 'STOP', { OptOutType: 'STOP' });
    expect(await text(person.phoneNumber, 'START', { OptOutType: 'START' })).toEqual([]);
    expect(await optedOut(person.phoneNumber)).toBe(false);
  });

  it.each(['HELP', 'info'])('%s is answered by Twilio on SMS, not by Loop too', async (word) => {
    const { person, loops } = await personIn('Keyword Loop');
    expect(await text(person.phoneNumber, word)).toEqual([]);
    expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
  });

  it('LOOPS lists the sender’s Loops', async () => {
    const { person, loops } = await personIn('Zeta', 'Alpha');
    expect(await text(person.phoneNumber, 'loops')).toEqual([expect.stringMatching(/^Your Loops: "Alpha" and "Zeta"\./)]);
    for (const loop of loops) expect(await updatesOf(db(), loop.id)).toEqual([]);
  });

  it('an opted-out member shares nothing (decision 0014) and gets no text on SMS, where Twilio blocks them', async () => {
    const { person, loops } = await personIn('Quiet');
    await text(person.phoneNumber, 'STOP');
    expect(await text(person.phoneNumber, 'News anyway')).toEqual([]);
    expect(await updatesOf(db(), loops[0]!.id)).toEqual([]);
    const queued = await db().transaction((tx) =>
      enqueueText(tx, { kind: 'reminder', userId: person.id, body: 'Time to share', idempotencyKey: `reminder:test:${person.id}` }),
    );
    expect(queued).toBeNull();
    expect(await textsTo(db(), person.phoneNumber)).toEqual([]);
  });
});
