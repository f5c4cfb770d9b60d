import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { loops, members, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { lookUpPhoneTimeZone } from '../../src/messaging/time-zones';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { createLoop, createPerson, testClock, textsTo } from '../helpers/messaging';

/**
 * Quiet hours where the phone's country has several zones (decision 0057). TCPA, 47 CFR
 * 64.1200(c)(1): no texts "before the hour of 8 a.m. or after 9 p.m. (local time at the called
 * party's location)". A mobile number tells the country, not the place: libphonenumber's map
 * files every +61 4 number under Sydney, +7 9 under Moscow and +62 8 under Jakarta. Zones of each
 * country: the IANA time-zone database's zone.tab.
 */
const clock = testClock(new Date('2026-11-10T00:00:00Z'));
let t: TestContext;
let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp({ ...twilioEnv(fake), QUIET_HOURS: '21:00-08:00', SMS_COUNTRIES: 'all' }, { clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const db = () => t.testDb.database.db;
const sentTo = (phone: string) => fake.sent.filter((s) => s.params.To === phone);

/** A text-only member of a Loop in `loopZone`, their phone's zone looked up as the scheduler does. */
async function memberWith(phoneNumber: string, loopZone: string) {
  const person = await createPerson(db(), { phoneNumber });
  await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'off' });
  const loop = await createLoop(db(), { name: `Loop of ${phoneNumber}`, memberIds: [person.id] });
  await db().update(loops).set({ timeZone: loopZone }).where(eq(loops.id, loop.id));
  return { person, loop };
}

/** Queues a group message to the member now and runs the worker. */
async function groupMessage(member: { person: { id: number }; loop: { id: number } }) {
  await db().transaction((tx) =>
    enqueueText(tx, {
      kind: 'group_message',
      userId: member.person.id,
      loopId: member.loop.id,
      body: 'Picnic moved',
      idempotencyKey: `cz:${member.person.id}:${clock().toISOString()}`,
    }),
  );
  await sweepUntilIdle(t.app.ctx);
}

async function goesAt(phone: string, at: string) {
  expect(sentTo(phone)).toHaveLength(0);
  expect((await textsTo(db(), phone))[0]).toMatchObject({ status: 'queued', notBefore: new Date(at) });
  clock.set(new Date(new Date(at).getTime() - 60_000));
  await sweepUntilIdle(t.app.ctx);
  expect(sentTo(phone)).toHaveLength(0);
  clock.set(new Date(at));
  await sweepUntilIdle(t.app.ctx);
  expect(sentTo(phone)).toHaveLength(1);
}

describe('a phone whose country spans several zones: texts go while it is daytime in all of them', () => {
  it('Australia: 09:00 in Sydney is 06:00 in Perth, so a +61 4 mobile waits for 08:00 in Perth', async () => {
    clock.set(new Date('2026-11-10T22:00:00Z')); // Wednesday 09:00 AEDT, 06:00 AWST
    const au = await memberWith('+61412300056', 'Australia/Sydney');
    expect((await db().select().from(users).where(eq(users.id, au.person.id)))[0]?.phoneTimeZone).toBe('');
    await groupMessage(au);
    await goesAt('+61412300056', '2026-11-11T00:00:00Z'); // 08:00 in Perth, 11:00 in Sydney
  });

  it('Russia: 08:00 in Moscow is 07:00 in Kaliningrad, so a +7 9 mobile waits an hour', async () => {
    clock.set(new Date('2026-11-12T05:00:00Z')); // 08:00 MSK, 07:00 in Kaliningrad, 17:00 in Kamchatka
    const ru = await memberWith('+79161234567', 'Europe/Moscow');
    await groupMessage(ru);
    await goesAt('+79161234567', '2026-11-12T06:00:00Z');
  });

  it('Indonesia: 19:30 in Jakarta is 21:30 in Jayapura, so a +62 8 mobile waits for 08:00 in Jakarta', async () => {
    clock.set(new Date('2026-11-13T12:30:00Z'));
    const id = await memberWith('+6281234567890', 'Asia/Jakarta');
    await groupMessage(id);
    // Jayapura's 08:00 (23:00Z) is still 06:00 in Jakarta: the first minute both are awake.
    await goesAt('+6281234567890', '2026-11-14T01:00:00Z');
  });

  it('United States: an area code places a number; a non-geographic +1 500 number waits for Honolulu', async () => {
    clock.set(new Date('2026-11-16T13:00:00Z')); // 08:00 EST, 03:00 in Honolulu
    const ny = await memberWith('+12125550199', 'America/New_York');
    await groupMessage(ny);
    expect(sentTo('+12125550199')).toHaveLength(1);

    // A +1 500 "personal number" is tied to no place (and refused at the moment of sending, as a
    // forwarding number): it waits for 08:00 in Honolulu, the last of the country's zones to wake.
    const personal = await memberWith('+15005550199', 'America/New_York');
    await groupMessage(personal);
    expect((await textsTo(db(), '+15005550199'))[0]).toMatchObject({ status: 'queued', notBefore: new Date('2026-11-16T18:00:00Z') });
  });

  it('a single-zone country: France goes by Paris alone', async () => {
    clock.set(new Date('2026-11-17T06:30:00Z')); // 07:30 in Paris
    const fr = await memberWith('+33612345678', 'UTC');
    expect((await db().select().from(users).where(eq(users.id, fr.person.id)))[0]?.phoneTimeZone).toBe('Europe/Paris');
    await groupMessage(fr);
    await goesAt('+33612345678', '2026-11-17T07:00:00Z');
  });

  it("the zone the owner chose for the member wins: a Sydney member's text goes at 09:00 Sydney", async () => {
    clock.set(new Date('2026-11-18T22:00:00Z')); // 09:00 AEDT, 06:00 AWST
    const au = await memberWith('+61412300057', 'Australia/Sydney');
    await db().update(members).set({ timeZone: 'Australia/Sydney' }).where(eq(members.userId, au.person.id));
    await groupMessage(au);
    expect(sentTo('+61412300057')).toHaveLength(1);
  });

  it('the phone map counts only numbers tied to a place in such countries', async () => {
    expect(await lookUpPhoneTimeZone('+61412300056')).toBe(''); // mobile
    expect(await lookUpPhoneTimeZone('+79161234567')).toBe('');
    expect(await lookUpPhoneTimeZone('+6281234567890')).toBe('');
    expect(await lookUpPhoneTimeZone('+74232123456')).toBe('Asia/Vladivostok'); // a Vladivostok landline
    expect(await lookUpPhoneTimeZone('+12125550199')).toBe('America/New_York');
    expect(await lookUpPhoneTimeZone('+33612345678')).toBe('Europe/Paris');
  });
});

describe('the owner sees it and can set the zone', () => {
  it("an Australian mobile shows the Loop's zone with source 'country' until the owner picks one", async () => {
    clock.set(new Date('2026-11-19T03:00:00Z'));
    const owner = await signUp(t.app, { phoneNumber: '+61298765432' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Down Under', timeZone: 'Australia/Sydney' });
    const member = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+61412300058' });
    const shown = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } }))
        .json<LoopDetail>()
        .members.find((m) => m.id === member.id);
    expect(await shown()).toMatchObject({ timeZone: 'Australia/Sydney', timeZoneSource: 'country', timeZoneCountry: 'AU' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}/members/${member.id}`,
      headers: { cookie: owner.cookie },
      payload: { timeZone: 'Australia/Perth' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ timeZone: 'Australia/Perth', timeZoneSource: 'owner', timeZoneCountry: null });
    expect(await shown()).toMatchObject({ timeZoneSource: 'owner', timeZoneCountry: null });
  });
});
