import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Invitation } from '@loop/shared/invitations';
import { consentQuestions, members, users } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { DAY_MS, HOUR_MS } from '../../../src/lib/clock';
import { isOptedOut, optOutPhone } from '../../../src/messaging/opt-outs';
import { deleteExpiredQuestions } from '../../../src/services/inbound/delete-expired-questions';
import { signUp, uniquePhone } from '../../helpers/app';
import { addMemberAs, createLoopAs } from '../../helpers/loops';
import { testClock, textsTo, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams, whatsappParams } from '../../helpers/twilio-fixtures';

// Consent is given to one Loop (decision 0033), played through the signed webhook and the worker
// (https://www.twilio.com/docs/messaging/guides/webhook-request).
const clock = testClock(new Date('2026-05-04T10:00:00Z'));
const env = useFakeTwilioApp({ clock });
const db = () => env.db();

async function text(phone: string, body: string, channel: 'sms' | 'whatsapp' = 'sms') {
  const before = (await textsTo(db(), phone)).length;
  const base = { accountSid: env.fake.accountSid, from: phone, body };
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', channel === 'sms' ? smsParams(base) : whatsappParams(base), {
    authToken: env.fake.authToken,
  });
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
  return (await textsTo(db(), phone)).slice(before).map((m) => m.body);
}

const statusIn = async (loopId: number, phone: string) => {
  const [row] = await db()
    .select({ status: members.status })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.loopId, loopId), eq(users.phoneNumber, phone)));
  return row?.status;
};

/** Alice and Mallory each add Carol to a Loop called "Smith Family". */
async function twoSmithFamilies() {
  const alice = await signUp(env.t.app, { firstName: 'Alice', lastName: 'Abbot' });
  const mallory = await signUp(env.t.app, { firstName: 'Mallory', lastName: 'M' });
  const alices = await createLoopAs(env.t.app, alice.cookie, { name: 'Smith Family' });
  const mallorys = await createLoopAs(env.t.app, mallory.cookie, { name: 'Smith Family' });
  const carol = uniquePhone();
  await addMemberAs(env.t.app, alice.cookie, alices.id, { phoneNumber: carol });
  await addMemberAs(env.t.app, mallory.cookie, mallorys.id, { phoneNumber: carol });
  return { alices, mallorys, carol, mallory, alice };
}

describe('story: one YES, two invitations', () => {
  it('a bare YES joins nothing and asks which, naming the inviters; "1" joins Alice\'s only, and the next text goes there', async () => {
    const { alices, mallorys, carol, alice, mallory } = await twoSmithFamilies();

    // Each inviter's proven phone's last digits tell the two apart (decision 0053).
    const [a, m] = [alice.user.phoneNumber.slice(-4), mallory.user.phoneNumber.slice(-4)];
    expect(await text(carol, 'YES')).toEqual([
      `Which Loop do you want to join? Reply 1 for "Smith Family" (from Alice Abbot, phone ending ${a}), 2 for "Smith Family" (from Mallory M, phone ending ${m}).`,
    ]);
    expect(await statusIn(alices.id, carol)).toBe('pending');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');

    expect(await text(carol, '1')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
    expect(await statusIn(alices.id, carol)).toBe('active');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');

    await text(carol, 'Grandma is home from the hospital');
    expect((await updatesOf(db(), alices.id)).map((u) => u.content)).toEqual(['Grandma is home from the hospital']);
    expect(await updatesOf(db(), mallorys.id)).toEqual([]);
  });

  it('"Smith Family: YES" and "YES #smithfamily" fit both: Loop asks the same way, nothing changes', async () => {
    const { alices, mallorys, carol } = await twoSmithFamilies();
    for (const body of ['Smith Family: YES', 'YES #smithfamily', 'JOIN Smith Family']) {
      expect(await text(carol, body)).toEqual([expect.stringMatching(/^Which Loop do you want to join\? Reply 1 for .+, 2 for /)]);
    }
    expect(await statusIn(alices.id, carol)).toBe('pending');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');
  });

  it('a reply that matches no choice changes nothing and asks again; the choice still works after', async () => {
    const { alices, mallorys, carol } = await twoSmithFamilies();
    await text(carol, 'YES');
    expect(await text(carol, '7')).toEqual([
      expect.stringMatching(/^That isn't one of the choices, so nothing changed\. Which Loop do you want to join\? Reply 1 for /),
    ]);
    expect(await statusIn(alices.id, carol)).toBe('pending');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');
    expect(await text(carol, '2')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
    expect(await statusIn(mallorys.id, carol)).toBe('active');
    expect(await statusIn(alices.id, carol)).toBe('pending');
  });

  it('a number is a choice only while the question is open: before it, and a day after it, "1" is an ordinary text', async () => {
    const { alices, mallorys, carol } = await twoSmithFamilies();
    // No question asked: "1" joins nothing (it waits for a YES, as any text from someone invited).
    const invited = expect.stringMatching(
      /^Loop: you're invited to "Smith Family" \(from [^)]+\) and "Smith Family" \(from [^)]+\)\. Reply YES/,
    );
    expect(await text(carol, '1')).toEqual([invited]);
    await text(carol, 'YES');
    clock.advance(24 * HOUR_MS + 1000);
    expect(await text(carol, '1')).toEqual([invited]);
    expect(await statusIn(alices.id, carol)).toBe('pending');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');
    // The minute tick's housekeeping forgets it.
    expect(await db().select().from(consentQuestions).where(eq(consentQuestions.phoneNumber, carol))).toHaveLength(1);
    await deleteExpiredQuestions(db(), clock());
    expect(await db().select().from(consentQuestions).where(eq(consentQuestions.phoneNumber, carol))).toEqual([]);
  });

  it('on WhatsApp too', async () => {
    const { alices, mallorys, carol } = await twoSmithFamilies();
    expect(await text(carol, 'yes', 'whatsapp')).toEqual([expect.stringMatching(/^Which Loop do you want to join\?/)]);
    expect(await statusIn(alices.id, carol)).toBe('pending');
    expect(await statusIn(mallorys.id, carol)).toBe('pending');
  });
});

describe('story: an invitation that was never sent', () => {
  /** Carol had opted out when Mallory added her, so no invitation went; she never heard of this Loop. */
  async function withheld() {
    const mallory = await signUp(env.t.app, { firstName: 'Mallory', lastName: 'M' });
    const loop = await createLoopAs(env.t.app, mallory.cookie, { name: 'Smith Family' });
    const carol = uniquePhone();
    await optOutPhone(db(), carol, 'STOP', clock());
    await addMemberAs(env.t.app, mallory.cookie, loop.id, { phoneNumber: carol });
    expect(await textsTo(db(), carol)).toEqual([]);
    return { loop, carol, mallory };
  }

  it('START joins nothing, and a bare YES after it asks instead of joining; only the choice joins', async () => {
    const { loop, carol, mallory } = await withheld();
    await text(carol, 'START');
    expect(await isOptedOut(db(), carol)).toBe(false);
    expect(await statusIn(loop.id, carol)).toBe('pending');
    expect(await text(carol, 'YES')).toEqual([
      `Which Loop do you want to join? Reply 1 for "Smith Family" (from Mallory M, phone ending ${mallory.user.phoneNumber.slice(-4)}).`,
    ]);
    expect(await statusIn(loop.id, carol)).toBe('pending');
    expect(await text(carol, '1')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
    expect(await statusIn(loop.id, carol)).toBe('active');
  });

  it("a YES sent while opted out lifts the STOP (Twilio's opt-in word) but joins nothing", async () => {
    const { loop, carol } = await withheld();
    await text(carol, 'YES');
    expect(await isOptedOut(db(), carol)).toBe(false);
    expect(await statusIn(loop.id, carol)).toBe('pending');
  });

  it('a YES naming the Loop while still opted out lifts the STOP but only asks; the choice after it joins', async () => {
    const { loop, carol } = await withheld();
    expect(await text(carol, 'YES\nSmith Family')).toEqual([
      expect.stringMatching(/^Which Loop do you want to join\? Reply 1 for "Smith Family"/),
    ]);
    expect(await statusIn(loop.id, carol)).toBe('pending');
    expect(await text(carol, '1')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
  });

  it('after START, a YES that names the Loop is explicit and joins it', async () => {
    const { loop, carol } = await withheld();
    await text(carol, 'START');
    expect(await text(carol, 'YES\nSmith Family')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
    expect(await statusIn(loop.id, carol)).toBe('active');
  });

  it('the membership records that its invitation was withheld; once the invitation is sent (a resend after START), a bare YES joins', async () => {
    const { loop, carol, mallory } = await withheld();
    const [row] = await db()
      .select()
      .from(members)
      .where(and(eq(members.loopId, loop.id), eq(members.status, 'pending')));
    expect(row?.invitationWithheld).toBe(true);
    await text(carol, 'START');
    clock.advance(DAY_MS);
    const resend = await env.t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members/${row?.id}/invitation`,
      headers: { cookie: mallory.cookie },
    });
    expect(resend.statusCode).toBe(200);
    expect((await textsTo(db(), carol)).filter((m) => m.kind === 'invitation')).toHaveLength(1);
    expect(await text(carol, 'YES')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family"/)]);
  });
});

// Two accounts named "Alicia Abbott" each create "Abbott Family" and add Bob (decision 0053): the
// question and My Loops tell the two invitations apart by what the impostor cannot copy, the last
// digits of each inviter's proven phone, and by the Loop's number should those match too.
async function abbottFamily(phoneNumber: string, bob: string) {
  const alicia = await signUp(env.t.app, { firstName: 'Alicia', lastName: 'Abbott', phoneNumber });
  const loop = await createLoopAs(env.t.app, alicia.cookie, { name: 'Abbott Family' });
  await addMemberAs(env.t.app, alicia.cookie, loop.id, { phoneNumber: bob });
  return loop;
}

describe('lookalike invitations', () => {
  it("the question names each inviter's phone ending; Bob picks the real Alicia's and is in hers only", async () => {
    const bob = '+14155557701';
    const real = await abbottFamily('+14155550101', bob);
    const impostor = await abbottFamily('+14155550199', bob);
    expect(await text(bob, 'YES')).toEqual([
      'Which Loop do you want to join? Reply 1 for "Abbott Family" (from Alicia Abbott, phone ending 0101), ' +
        '2 for "Abbott Family" (from Alicia Abbott, phone ending 0199).',
    ]);
    expect(await text(bob, '1')).toEqual([expect.stringMatching(/^Loop: you're in "Abbott Family"/)]);
    const bobs = await db()
      .select({ loopId: members.loopId, status: members.status })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(users.phoneNumber, bob));
    expect(bobs).toEqual(
      expect.arrayContaining([
        { loopId: real.id, status: 'active' },
        { loopId: impostor.id, status: 'pending' },
      ]),
    );
  });

  it('when the impostor found a phone with the same last digits, each choice also names its Loop', async () => {
    const bob = '+14155557702';
    const real = await abbottFamily('+14155550102', bob);
    const impostor = await abbottFamily('+14155560102', bob);
    expect(await text(bob, 'YES')).toEqual([
      `Which Loop do you want to join? Reply 1 for "Abbott Family" (from Alicia Abbott, phone ending 0102, Loop #${real.id}), ` +
        `2 for "Abbott Family" (from Alicia Abbott, phone ending 0102, Loop #${impostor.id}).`,
    ]);
  });

  it('My Loops gives each invitation its inviter’s phone ending', async () => {
    const bob = '+14155557703';
    await abbottFamily('+14155550103', bob);
    await abbottFamily('+14155550193', bob);
    // Bob signs up with the phone both added: proving it by code shows him his invitations.
    const bobAccount = await signUp(env.t.app, { firstName: 'Bob', phoneNumber: bob });
    const res = await env.t.app.inject({ url: '/api/invitations', headers: { cookie: bobAccount.cookie } });
    const list = res.json<Invitation[]>();
    expect(list.map((i) => i.invitedBy)).toEqual(
      expect.arrayContaining([
        { firstName: 'Alicia', lastName: 'Abbott', phoneEnd: '0103' },
        { firstName: 'Alicia', lastName: 'Abbott', phoneEnd: '0193' },
      ]),
    );
  });
});
