import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { members, messages } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { DAY_MS, HOUR_MS } from '../../../src/lib/clock';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { signUp, uniquePhone } from '../../helpers/app';
import { addMemberAs, createLoopAs } from '../../helpers/loops';
import { testClock, textsTo, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams } from '../../helpers/twilio-fixtures';

// Membership consent (decision 0015), through the API and Twilio's inbound webhook (fixtures: test/helpers/twilio-fixtures.ts,
// https://www.twilio.com/docs/messaging/guides/webhook-request).
const clock = testClock(new Date('2026-05-04T10:00:00Z'));
const env = useFakeTwilioApp({ clock });
const { db } = env;

/** Texts `body` from `phone` through the signed webhook and the worker; returns every text the phone got since. */
async function text(phone: string, body: string) {
  const before = (await textsTo(db(), phone)).length;
  const res = await postWebhook(
    env.t.app,
    '/api/webhooks/twilio/messages',
    smsParams({ accountSid: env.fake.accountSid, from: phone, body }),
    {
      authToken: env.fake.authToken,
    },
  );
  expect(res.statusCode).toBe(200);
  await sweepUntilIdle(env.t.app.ctx);
  return (await textsTo(db(), phone)).slice(before).map((m) => m.body);
}

const add = (cookie: string, loopId: number, phoneNumber: string, firstName = 'Carol') =>
  env.t.app.inject({
    method: 'POST',
    url: `/api/loops/${loopId}/members`,
    headers: { cookie },
    payload: { firstName, lastName: 'Jones', phoneNumber },
  });
const detail = async (cookie: string, loopId: number) =>
  (await env.t.app.inject({ url: `/api/loops/${loopId}`, headers: { cookie } })).json<LoopDetail>();
const membership = async (loopId: number, phone: string) =>
  (await detail((await owner()).cookie, loopId)).members.find((m) => m.user.phoneNumber === phone);
let ownerCache: Awaited<ReturnType<typeof signUp>> | undefined;
const owner = async () => (ownerCache ??= await signUp(env.t.app, { firstName: 'Alice', lastName: 'Smith' }));

describe('a membership is pending until its phone says YES', () => {
  it('adding queues one invitation naming the adder and the quoted Loop; YES makes it active and texts start', async () => {
    const alice = await owner();
    const loop = await createLoopAs(env.t.app, alice.cookie, { name: 'Smith Family' });
    const carol = uniquePhone();
    const res = await add(alice.cookie, loop.id, carol);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ state: 'pending', notice: null, invitedAt: clock().toISOString() });
    const [invitation] = await textsTo(db(), carol);
    expect(invitation).toMatchObject({ kind: 'invitation', loopId: loop.id });
    expect(invitation?.body).toBe(
      'Loop: Alice Smith invited you to "Smith Family" (group news, about 3 msgs/wk). Msg & data rates may apply. Reply YES to join, HELP for help, STOP to opt out.',
    );

    // Pending: a text from Carol reaches no Loop yet (it waits for her YES), and a group message skips her.
    expect(await text(carol, 'Hello?')).toEqual([
      expect.stringMatching(/^Loop: Alice Smith invited you to "Smith Family"\. Reply YES to join/),
    ]);
    expect(await updatesOf(db(), loop.id)).toEqual([]);

    expect(await text(carol, 'yes')).toEqual([expect.stringMatching(/^Loop: you're in "Smith Family" \(about 3 msgs\/wk\)/)]);
    expect(await membership(loop.id, carol)).toMatchObject({ state: 'active', invitedAt: null, resendAt: null });
    await text(carol, 'Grandma is home');
    // What she texted while invited went to the Loop she said yes to.
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['Hello?', 'Grandma is home']);

    // A second YES changes nothing and says so.
    expect(await text(carol, 'YES')).toEqual([expect.stringContaining("There's no open Loop invitation")]);
  });

  it('YES naming one Loop confirms only that one; JOIN works too; a Loop not pending changes nothing', async () => {
    const alice = await owner();
    const a = await createLoopAs(env.t.app, alice.cookie, { name: 'Book Club' });
    const b = await createLoopAs(env.t.app, alice.cookie, { name: 'Running Crew' });
    const carol = uniquePhone();
    await addMemberAs(env.t.app, alice.cookie, a.id, { phoneNumber: carol });
    await addMemberAs(env.t.app, alice.cookie, b.id, { phoneNumber: carol });

    expect(await text(carol, 'YES\nChess Club')).toEqual([
      expect.stringMatching(
        /^You have no open invitation to a Loop called "Chess Club", so nothing changed\. Your invitations: "Book Club" and "Running Crew"\./,
      ),
    ]);
    expect((await membership(a.id, carol))?.state).toBe('pending');

    expect(await text(carol, 'JOIN Running Crew')).toEqual([expect.stringMatching(/^Loop: you're in "Running Crew"/)]);
    expect((await membership(a.id, carol))?.state).toBe('pending');
    expect((await membership(b.id, carol))?.state).toBe('active');
    expect(await text(carol, 'Book Club: yes')).toEqual([expect.stringMatching(/^Loop: you're in "Book Club"/)]);
    expect((await membership(a.id, carol))?.state).toBe('active');
  });

  it('YES from an unknown phone, or with nothing pending: a clear reply and no membership changes', async () => {
    const before = await db().select().from(members);
    expect(await text(uniquePhone(), 'YES')).toEqual([expect.stringContaining("There's no open Loop invitation")]);
    expect(await db().select().from(members)).toEqual(before);
  });

  it('an invitation expires after 7 days: YES then confirms nothing; the owner sees it expired and may send it again', async () => {
    const alice = await owner();
    const loop = await createLoopAs(env.t.app, alice.cookie, { name: 'Late Loop' });
    const carol = uniquePhone();
    const { id } = await addMemberAs(env.t.app, alice.cookie, loop.id, { phoneNumber: carol });
    const resend = () =>
      env.t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/members/${id}/invitation`, headers: { cookie: alice.cookie } });

    const tooSoon = await resend();
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe('An invitation went to this member less than a day ago. You can send it again in 24 hours.');

    clock.advance(7 * DAY_MS + HOUR_MS);
    expect((await membership(loop.id, carol))?.state).toBe('expired');
    expect(await text(carol, 'YES')).toEqual([expect.stringContaining("There's no open Loop invitation")]);
    expect((await membership(loop.id, carol))?.state).toBe('expired');
    expect((await textsTo(db(), carol)).filter((m) => m.kind === 'invitation')).toHaveLength(1);

    const again = await resend();
    expect(again.statusCode).toBe(200);
    expect(again.json<LoopDetail>().members.find((m) => m.id === id)).toMatchObject({ state: 'pending', invitedAt: clock().toISOString() });
    expect((await textsTo(db(), carol)).filter((m) => m.kind === 'invitation')).toHaveLength(2);
    expect(await text(carol, 'YES')).toEqual([expect.stringMatching(/^Loop: you're in "Late Loop"/)]);
    expect((await resend()).statusCode).toBe(400);
  });
});

describe('story: diverted texts', () => {
  it("Bob adding Carol's phone to his Loop gets none of her texts until she says yes to him", async () => {
    const alice = await owner();
    const bob = await signUp(env.t.app, { firstName: 'Bob' });
    const family = await createLoopAs(env.t.app, alice.cookie, { name: 'Carol Family' });
    const bobs = await createLoopAs(env.t.app, bob.cookie, { name: "Bob's Loop" });
    const carol = uniquePhone();
    await addMemberAs(env.t.app, alice.cookie, family.id, { phoneNumber: carol });
    await text(carol, 'YES');

    expect((await add(bob.cookie, bobs.id, carol)).statusCode).toBe(201);
    await text(carol, 'Grandma is in hospital, room 12, please keep private');
    expect((await updatesOf(db(), family.id)).map((u) => u.content)).toEqual(['Grandma is in hospital, room 12, please keep private']);
    expect(await updatesOf(db(), bobs.id)).toEqual([]);
  });

  it('adding a phone that texted STOP tells the adder, sends it nothing, and it stays pending', async () => {
    const bob = await signUp(env.t.app, { firstName: 'Bob' });
    const loop = await createLoopAs(env.t.app, bob.cookie, { name: 'Quiet Loop' });
    const carol = uniquePhone();
    await optOutPhone(db(), carol, 'STOP', clock());
    const res = await add(bob.cookie, loop.id, carol);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      state: 'not_invited',
      resendAt: null,
      notice: 'This number has opted out of Loop texts, so no invitation was sent. They can rejoin by texting START.',
    });
    expect(await textsTo(db(), carol)).toEqual([]);
    const [row] = await db()
      .select()
      .from(members)
      .where(and(eq(members.loopId, loop.id), eq(members.status, 'pending')));
    expect(row).toBeDefined();
    const resend = await env.t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members/${row?.id}/invitation`,
      headers: { cookie: bob.cookie },
    });
    expect(resend.statusCode).toBe(409);
    expect(resend.json().message).toContain('opted out of Loop texts');

    // START lifts the STOP and says which invitation waits; YES then joins.
    // On SMS Twilio answers START itself (TWILIO_KEYWORD_REPLIES=twilio): Loop adds only the invitation.
    expect(await text(carol, 'START')).toEqual([expect.stringMatching(/You have an open invitation to "Quiet Loop": reply YES to join\./)]);
    // Its invitation never went: a bare YES asks, naming who invited her; her choice joins (decision 0033).
    expect(await text(carol, 'YES')).toEqual([
      `Which Loop do you want to join? Reply 1 for "Quiet Loop" (from Bob Lovelace, phone ending ${bob.user.phoneNumber.slice(-4)}).`,
    ]);
    expect(
      (
        await db()
          .select()
          .from(members)
          .where(eq(members.id, row?.id ?? 0))
      )[0]?.status,
    ).toBe('pending');
    expect(await text(carol, '1')).toEqual([expect.stringMatching(/^Loop: you're in "Quiet Loop"/)]);
  });
});

describe('story: hashtag hijack', () => {
  it('Mallory\'s "Smith  family" gets nothing of Carol\'s, and a tie between two active Loops asks instead of picking', async () => {
    const alice = await owner();
    const mallory = await signUp(env.t.app, { firstName: 'Mallory', lastName: 'Evil' });
    const smiths = await createLoopAs(env.t.app, alice.cookie, { name: 'Smith Family' });
    const fake = await createLoopAs(env.t.app, mallory.cookie, { name: 'Smith  family' });
    const carol = uniquePhone();
    await addMemberAs(env.t.app, alice.cookie, smiths.id, { phoneNumber: carol });
    await text(carol, 'YES');
    await add(mallory.cookie, fake.id, carol);

    await text(carol, '#smithfamily photos from the lake');
    expect((await updatesOf(db(), smiths.id)).map((u) => u.content)).toEqual(['photos from the lake']);
    expect(await updatesOf(db(), fake.id)).toEqual([]);

    // Even if Carol said yes to both, the name never silently picks one.
    expect(await text(carol, 'YES\nSmith  family')).toEqual([
      expect.stringMatching(/^More than one of your Loops is called "Smith Family"/),
    ]);
    await db().update(members).set({ status: 'active' }).where(eq(members.loopId, fake.id));
    const replies = await text(carol, '#smithfamily more from the lake');
    expect(replies).toEqual([
      expect.stringMatching(
        /^More than one of your Loops is called "Smith family" \(one run by Mallory Evil, one run by Alice Smith\), so nothing was shared\./,
      ),
    ]);
    expect(await text(carol, 'Smith Family: and more')).toEqual([expect.stringContaining('More than one of your Loops')]);
    expect(await updatesOf(db(), smiths.id)).toHaveLength(1);
    expect(await updatesOf(db(), fake.id)).toEqual([]);
  });
});

describe("story: texts to anyone, with anyone's words", () => {
  it('the Loop name is quoted and cut short in the invitation, and adds stop at the hourly limit with a 429 that says when', async () => {
    const app = await env.t.rebuild({ MEMBER_ADDS_PER_ACCOUNT_PER_HOUR: '3', MEMBER_ADDS_PER_ACCOUNT_PER_DAY: '5' });
    const spammer = await signUp(app, { firstName: 'New', lastName: 'Account' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie: spammer.cookie },
      // A phone number, a link or a bank's name is refused outright (test/security/phishing-names.test.ts).
      payload: { name: 'URGENT Your parcel is waiting call the number on the slip right now', vibe: ['fun'] },
    });
    const loop = res.json<{ id: number }>();
    const phones = Array.from({ length: 4 }, () => uniquePhone());
    const answers = [];
    for (const phone of phones) {
      answers.push(
        await app.inject({
          method: 'POST',
          url: `/api/loops/${loop.id}/members`,
          headers: { cookie: spammer.cookie },
          payload: { firstName: 'X', lastName: 'Y', phoneNumber: phone },
        }),
      );
    }
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 429]);
    expect(answers[3]?.json().message).toBe('You have added the most members allowed in one hour. Please try again in 60 minutes.');
    // The refused add left nothing behind: no membership, no text.
    expect(await textsTo(db(), phones[3] ?? '')).toEqual([]);
    expect(await db().select().from(members).where(eq(members.loopId, loop.id))).toHaveLength(4);

    const [invitation] = await textsTo(db(), phones[0] ?? '');
    expect(invitation?.body).toMatch(/^Loop: New Account invited you to "URGENT Your parcel is waiting call th\.\.\." \(/);
    expect(invitation?.body).not.toContain('on the slip');
  });

  it('one invitation per phone per Loop per day, and a cap per phone across Loops', async () => {
    const app = await env.t.rebuild({ INVITATIONS_PER_PHONE_PER_DAY: '2' });
    const carol = uniquePhone();
    const adders = [await signUp(app), await signUp(app), await signUp(app)];
    const statuses = [];
    for (const adder of adders) {
      const loop = await createLoopAs(app, adder.cookie, { name: 'Any' });
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: `/api/loops/${loop.id}/members`,
            headers: { cookie: adder.cookie },
            payload: { firstName: 'C', lastName: 'J', phoneNumber: carol },
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([201, 201, 429]);
    expect((await textsTo(db(), carol)).filter((m) => m.kind === 'invitation')).toHaveLength(2);

    const owner2 = adders[0]!;
    const loop = await createLoopAs(app, owner2.cookie, { name: 'Readd' });
    const other = uniquePhone();
    const first = await app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner2.cookie },
      payload: { firstName: 'C', lastName: 'J', phoneNumber: other },
    });
    await app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/members/${first.json<{ id: number }>().id}`,
      headers: { cookie: owner2.cookie },
    });
    const again = await app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner2.cookie },
      payload: { firstName: 'C', lastName: 'J', phoneNumber: other },
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(
      /^This number was sent an invitation to this Loop less than a day ago\. You can invite it again in \d+ hours\.$/,
    );
  });

  it('Loops created per account per hour are limited', async () => {
    const app = await env.t.rebuild({ LOOPS_PER_ACCOUNT_PER_HOUR: '2' });
    const person = await signUp(app);
    const create = () =>
      app.inject({ method: 'POST', url: '/api/loops', headers: { cookie: person.cookie }, payload: { name: 'L', vibe: ['fun'] } });
    expect([(await create()).statusCode, (await create()).statusCode]).toEqual([201, 201]);
    const third = await create();
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe('You have created the most Loops allowed in one hour. Please try again in 60 minutes.');
  });
});

describe("owners see each member's state", () => {
  it('a member whose last text failed shows the error in words', async () => {
    const alice = await owner();
    const loop = await createLoopAs(env.t.app, alice.cookie, { name: 'Failing Loop' });
    const carol = uniquePhone();
    await addMemberAs(env.t.app, alice.cookie, loop.id, { phoneNumber: carol });
    await db()
      .update(messages)
      .set({ status: 'undelivered', error: 'Twilio error 30005 (undelivered)' })
      .where(eq(messages.toAddress, carol));
    expect(await membership(loop.id, carol)).toMatchObject({
      state: 'failing',
      lastError: 'This number does not exist or is no longer in use.',
    });
    const staff = await env.t.app.inject({ url: `/api/admin/loops/${loop.id}`, headers: { cookie: alice.cookie } });
    expect(staff.statusCode).toBe(403);
  });
});
