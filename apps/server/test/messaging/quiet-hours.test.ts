import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { loops, messages, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { MINUTE_MS } from '../../src/lib/clock';
import { enqueueText } from '../../src/messaging/outbox';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { addActiveMemberAs, addMemberAs, createLoopAs } from '../helpers/loops';
import { createLoop, createPerson, testClock, textsTo } from '../helpers/messaging';
import { postWebhook, smsParams } from '../helpers/twilio-fixtures';

/**
 * Quiet hours in the recipient's own time: TCPA, 47 CFR 64.1200(c)(1) ("before the hour of 8
 * a.m. or after 9 p.m. (local time at the called party's location)"), which the FCC applies to
 * texts. QUIET_HOURS is on here (the default, 21:00-08:00), as in production.
 */
const clock = testClock(new Date('2026-11-10T08:00:00Z')); // Tuesday 03:00 in New York (EST)
let t: TestContext;
let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp({ ...twilioEnv(fake), QUIET_HOURS: '21:00-08:00' }, { clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const db = () => t.testDb.database.db;
const sentTo = (phone: string) => fake.sent.filter((s) => s.params.To === phone);

let counter = 0;
/** A phone in New York (area code 212), Los Angeles (310), Toronto (416) or Tokyo (+81 90). */
const phone = (where: 'ny' | 'la' | 'toronto' | 'tokyo') => {
  counter += 1;
  const n = String(1000 + counter).slice(-4);
  return { ny: `+1212555${n}`, la: `+1310555${n}`, toronto: `+1416555${n}`, tokyo: `+8190555${n.padStart(5, '0')}` }[where];
};

async function personIn(where: 'ny' | 'la' | 'toronto' | 'tokyo', firstName = 'Ada') {
  const person = await createPerson(db(), { phoneNumber: phone(where), firstName });
  // As the scheduler does for people added by a script: the phone's zone, looked up once.
  await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' });
  return (await db().select().from(users).where(eq(users.id, person.id)))[0] ?? person;
}

describe('texts Loop starts wait for 08:00 in the recipient’s zone (47 CFR 64.1200(c)(1))', () => {
  it('a group message queued at 03:00 in New York goes at 08:00 there, once; Los Angeles waits for its own 08:00', async () => {
    clock.set(new Date('2026-11-10T08:00:00Z')); // 03:00 EST, 00:00 PST
    const ny = await personIn('ny');
    const la = await personIn('la');
    expect([ny.phoneTimeZone, la.phoneTimeZone]).toEqual(['America/New_York', 'America/Los_Angeles']);
    const loop = await createLoop(db(), { name: 'Coast to Coast', memberIds: [ny.id, la.id] });
    await db().update(loops).set({ timeZone: 'UTC' }).where(eq(loops.id, loop.id));
    for (const person of [ny, la]) {
      await db().transaction((tx) =>
        enqueueText(tx, {
          kind: 'group_message',
          userId: person.id,
          loopId: loop.id,
          body: 'Picnic moved',
          idempotencyKey: `qh:${person.id}`,
        }),
      );
    }

    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(0);
    expect(sentTo(la.phoneNumber)).toHaveLength(0);
    const [nyRow] = await textsTo(db(), ny.phoneNumber);
    const [laRow] = await textsTo(db(), la.phoneNumber);
    expect(nyRow).toMatchObject({ status: 'queued', attempts: 0, notBefore: new Date('2026-11-10T13:00:00Z') }); // 08:00 EST
    expect(laRow).toMatchObject({ status: 'queued', attempts: 0, notBefore: new Date('2026-11-10T16:00:00Z') }); // 08:00 PST

    clock.set(new Date('2026-11-10T12:59:00Z'));
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(0);

    clock.set(new Date('2026-11-10T13:00:00Z'));
    await sweepUntilIdle(t.app.ctx);
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(1);
    expect(sentTo(la.phoneNumber)).toHaveLength(0);

    clock.set(new Date('2026-11-10T16:00:00Z'));
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(1);
    expect(sentTo(la.phoneNumber)).toHaveLength(1);
    expect((await textsTo(db(), la.phoneNumber))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a text queued at 21:30 waits for 08:00 the next day; one at 20:59 goes at once', async () => {
    const ny = await personIn('ny');
    clock.set(new Date('2026-11-11T01:59:00Z')); // Tuesday 20:59 EST
    await db().transaction((tx) =>
      enqueueText(tx, { kind: 'newsletter', userId: ny.id, body: 'Your newsletter', idempotencyKey: `qh-nl:${ny.id}` }),
    );
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(1);

    clock.set(new Date('2026-11-11T02:30:00Z')); // 21:30 EST
    await db().transaction((tx) =>
      enqueueText(tx, { kind: 'sneak_peek', userId: ny.id, body: 'A sneak peek', idempotencyKey: `qh-sp:${ny.id}` }),
    );
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber)).toHaveLength(1);
    expect((await textsTo(db(), ny.phoneNumber))[1]?.notBefore).toEqual(new Date('2026-11-11T13:00:00Z')); // Wednesday 08:00 EST
  });

  it('an invitation added at 23:00 New York time waits, and the owner sees when it goes', async () => {
    clock.set(new Date('2026-11-12T04:00:00Z')); // Wednesday 23:00 EST
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Night Owls', timeZone: 'America/New_York' });
    const guest = phone('ny');
    await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: guest, firstName: 'Gus' });
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(guest)).toHaveLength(0);
    const [invitation] = await textsTo(db(), guest);
    expect(invitation).toMatchObject({ kind: 'invitation', status: 'queued', notBefore: new Date('2026-11-12T13:00:00Z') }); // 08:00 EST

    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })
    ).json<LoopDetail>();
    const member = detail.members.find((m) => m.user.phoneNumber === guest);
    expect(member).toMatchObject({ timeZone: 'America/New_York', timeZoneSource: 'phone', scheduledFor: '2026-11-12T13:00:00.000Z' });

    clock.set(new Date('2026-11-12T13:00:00Z'));
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(guest)).toHaveLength(1);
  });
});

describe('a held invitation is checked again when it is sent (GDPR Art. 5(1)(c); decision 0015)', () => {
  it('queued at 23:00, accepted on the website at 07:00: nothing is sent at 08:00', async () => {
    clock.set(new Date('2026-11-20T04:00:00Z')); // Thursday 23:00 EST
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Early Birds', timeZone: 'America/New_York' });
    const guest = phone('ny');
    const member = await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: guest, firstName: 'Gwen' });
    await sweepUntilIdle(t.app.ctx);
    expect((await textsTo(db(), guest))[0]).toMatchObject({ kind: 'invitation', status: 'queued' });

    // 07:00: Gwen signs up with that phone (its code goes at once) and accepts on My Loops.
    clock.set(new Date('2026-11-20T12:00:00Z'));
    const gwen = await signUp(t.app, { phoneNumber: guest, firstName: 'Gwen' });
    const accepted = await t.app.inject({ method: 'POST', url: `/api/invitations/${member.id}/accept`, headers: { cookie: gwen.cookie } });
    expect(accepted.statusCode, accepted.body).toBe(200);

    clock.set(new Date('2026-11-20T13:00:00Z')); // 08:00 EST
    await sweepUntilIdle(t.app.ctx);
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(guest).filter((s) => String(s.params.Body).includes('Reply YES to join'))).toHaveLength(0);
    const [invitation] = (await textsTo(db(), guest)).filter((m) => m.kind === 'invitation');
    expect(invitation).toMatchObject({
      status: 'failed',
      error: 'Not sent: the invitation was answered (they joined or declined) or withdrawn after it was queued.',
    });
  });
});

describe('exempt: answers to a person who just texted, and codes they asked for', () => {
  it('at 03:00 a reply to LOOPS and a sign-up code go at once', async () => {
    clock.set(new Date('2026-11-13T08:00:00Z')); // 03:00 EST
    const ny = await personIn('ny', 'Nina');
    await createLoop(db(), { name: 'Insomniacs', memberIds: [ny.id] });
    const res = await postWebhook(
      t.app,
      '/api/webhooks/twilio/messages',
      smsParams({ accountSid: fake.accountSid, from: ny.phoneNumber, body: 'LOOPS' }),
      {
        authToken: fake.authToken,
      },
    );
    expect(res.statusCode).toBe(200);
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(ny.phoneNumber).map((s) => s.params.Body)).toEqual([expect.stringContaining('Insomniacs')]);

    const signer = phone('ny');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: {
        firstName: 'Sam',
        lastName: 'Late',
        email: `late-${counter}@example.com`,
        password: 'correct horse battery',
        phoneNumber: signer,
      },
    });
    expect(started.statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    expect(sentTo(signer)).toHaveLength(1);
    expect((await textsTo(db(), signer))[0]).toMatchObject({ kind: 'code', status: 'sent', notBefore: null });
  });
});

describe('time zones', () => {
  it('accepts every IANA name, aliases included (Asia/Kolkata as well as Asia/Calcutta), and refuses others', async () => {
    clock.set(new Date('2026-11-14T15:00:00Z'));
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Mumbai', timeZone: 'Asia/Kolkata' });
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie }, payload });
    expect((await put({ timeZone: 'Asia/Calcutta' })).statusCode).toBe(200);
    expect((await put({ timeZone: 'US/Eastern' })).statusCode).toBe(200);
    const bad = await put({ timeZone: 'Mars/Olympus_Mons' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Time zone must be an IANA name such as "America/New_York"' });
    expect((await put({ timeZone: '+05:30' })).statusCode).toBe(400);

    const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: phone('la') });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}/members/${member.id}`,
      headers: { cookie: owner.cookie },
      payload: { timeZone: 'Asia/Kolkata' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ timeZone: 'Asia/Kolkata', timeZoneSource: 'owner', ownerTimeZone: 'Asia/Kolkata' });
    const profile = await t.app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: { cookie: owner.cookie },
      payload: { timeZone: 'Asia/Kolkata' },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ timeZone: 'Asia/Kolkata' });
  });

  it("a member's own choice wins over the owner's, which wins over the phone's, which wins over the Loop's", async () => {
    clock.set(new Date('2026-11-14T15:00:00Z'));
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Layers', timeZone: 'Europe/Paris' });
    const memberPhone = phone('la');
    // An account holder who said yes: a Loop shows their own choice (before yes it shows only what the owner typed, decision 0031).
    await signUp(t.app, { phoneNumber: memberPhone });
    const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: memberPhone });
    const zoneOf = async () => {
      const detail = (
        await t.app.inject({ method: 'GET', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })
      ).json<LoopDetail>();
      const m = detail.members.find((x) => x.id === member.id);
      return [m?.timeZone, m?.timeZoneSource];
    };
    expect(await zoneOf()).toEqual(['America/Los_Angeles', 'phone']);
    await db().update(users).set({ phoneTimeZone: '' }).where(eq(users.phoneNumber, memberPhone));
    // A US number that names no zone: the Loop's, with quiet hours in all US zones (decision 0057).
    expect(await zoneOf()).toEqual(['Europe/Paris', 'country']);
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/loops/${loop.id}/members/${member.id}`, headers: { cookie: owner.cookie }, payload });
    expect((await put({ timeZone: 'America/Chicago' })).statusCode).toBe(200);
    expect(await zoneOf()).toEqual(['America/Chicago', 'owner']);
    await db().update(users).set({ timeZone: 'Asia/Tokyo' }).where(eq(users.phoneNumber, memberPhone));
    expect(await zoneOf()).toEqual(['Asia/Tokyo', 'member']);
    expect((await put({ timeZone: null })).json()).toMatchObject({ timeZone: 'Asia/Tokyo', ownerTimeZone: null });
  });
});

describe('reminders at the schedule’s time in each member’s own zone (47 CFR 64.1200(c)(1))', () => {
  it('a weekly Thursday 09:00 reminder reaches Tokyo and Toronto at 09:00 local', async () => {
    clock.set(new Date('2026-11-16T00:00:00Z')); // Monday
    const toronto = await personIn('toronto', 'Tori');
    const tokyo = await personIn('tokyo', 'Taro');
    const loop = await createLoop(db(), { name: 'Two Cities', memberIds: [toronto.id, tokyo.id] });
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    await db().update(loops).set({ creatorId: owner.user.id }).where(eq(loops.id, loop.id));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}`,
      headers: { cookie: owner.cookie },
      payload: { reminderSchedule: [{ day: 'thursday', time: '09:00' }], timeZone: 'UTC' },
    });
    expect(res.statusCode).toBe(200);
    // Before: the Loop's 09:00 UTC, which is 04:00 in Toronto and 18:00 in Tokyo.
    while (clock().getTime() < new Date('2026-11-20T00:00:00Z').getTime()) {
      clock.advance(5 * MINUTE_MS);
      await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' });
    }
    const reminders = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.kind, 'reminder'), eq(messages.loopId, loop.id)));
    // The key names the minute (UTC) each was due: reminder:{minute}:{userId}:{loopIds}.
    const at = (p: string) => reminders.filter((m) => m.toAddress === p).map((m) => m.idempotencyKey?.split(':').slice(1, 3).join(':'));
    expect(at(tokyo.phoneNumber)).toEqual(['2026-11-19T00:00']); // Thursday 09:00 JST
    expect(at(toronto.phoneNumber)).toEqual(['2026-11-19T14:00']); // Thursday 09:00 EST
    expect(reminders).toHaveLength(2);
  }, 120_000);

  it('the API refuses a reminder time in quiet hours or within 30 minutes of them, and allows 08:00 to 20:30', async () => {
    const owner = await signUp(t.app, { phoneNumber: phone('ny') });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Times' });
    const put = (time: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/loops/${loop.id}`,
        headers: { cookie: owner.cookie },
        payload: { reminderSchedule: [{ day: 'monday', time }] },
      });
    for (const time of ['08:00', '12:00', '20:30']) expect((await put(time)).statusCode, time).toBe(200);
    for (const time of ['07:55', '20:35', '21:00', '23:30', '03:20']) {
      const res = await put(time);
      expect(res.statusCode, time).toBe(400);
      expect(res.json()).toMatchObject({
        message: "Reminder times must be from 08:00 to 20:30: no texts during quiet hours (21:00-08:00 in each member's own time)",
      });
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie: owner.cookie },
      payload: { name: 'Night', vibe: ['family'], reminderSchedule: [{ day: 'monday', time: '03:20' }] },
    });
    expect(created.statusCode).toBe(400);

    const off = await t.rebuild({ QUIET_HOURS: 'off' });
    const late = await off.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}`,
      headers: { cookie: owner.cookie },
      payload: { reminderSchedule: [{ day: 'monday', time: '23:30' }] },
    });
    expect(late.statusCode).toBe(200);
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json<{ quietHours: unknown }>();
    expect(config.quietHours).toEqual({ start: '21:00', end: '08:00' });
    expect((await off.inject({ method: 'GET', url: '/api/config' })).json<{ quietHours: unknown }>().quietHours).toBeNull();
  });
});
