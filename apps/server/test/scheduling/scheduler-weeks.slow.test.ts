import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loops, messages, phoneOptOuts } from '../../src/db/schema';
import { signUp } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { minuteOf, schedulerWorld } from './scheduler-world';

/**
 * The scheduler over whole simulated weeks and daylight-saving days, a tick every five minutes
 * (2,016 a week): the slowest tests of the scheduler, in `npm run test:slow` (decision 0066). The
 * rest of the scheduler's tests are scheduler.test.ts.
 */
const { clock, app, db, runUntil, remindersOf } = schedulerWorld();

describe('reminders over a simulated week', { timeout: 120_000 }, () => {
  it('go out at each slot in each Loop zone, skipping paused Loops and opted-out phones', async () => {
    clock.set(new Date('2026-03-02T00:00:00Z'));
    const owner = await signUp(app(), { firstName: 'Nora' });
    const ny = await createLoopAs(app(), owner.cookie, { name: 'New York', timeZone: 'America/New_York' }); // Thu 09:00, Sun 17:00
    const tokyo = await createLoopAs(app(), owner.cookie, {
      name: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      reminderSchedule: [
        { day: 'monday', time: '08:00' },
        { day: 'wednesday', time: '20:30' },
      ],
    });
    const paused = await createLoopAs(app(), owner.cookie, { name: 'Paused', timeZone: 'UTC' });
    await db().update(loops).set({ paused: true }).where(eq(loops.id, paused.id));
    await addActiveMemberAs(app(), owner.cookie, ny.id, { phoneNumber: '+14155550301', firstName: 'Opted' });
    await db().insert(phoneOptOuts).values({ phoneNumber: '+14155550301', reason: 'STOP' });
    await addActiveMemberAs(app(), owner.cookie, ny.id, { phoneNumber: '+14155550302', firstName: 'Pia' });

    await runUntil(new Date('2026-03-09T00:00:00Z'));

    const nyTexts = await remindersOf(ny.id);
    // Thursday 09:00 EST = 14:00Z, Sunday 17:00 EDT (DST began that morning) = 21:00Z; Nora and Pia each time.
    expect(nyTexts.map((m) => `${minuteOf(m.idempotencyKey)} ${m.toAddress}`).sort()).toEqual(
      [
        `2026-03-05T14:00 ${owner.account.phoneNumber}`,
        '2026-03-05T14:00 +14155550302',
        `2026-03-08T21:00 ${owner.account.phoneNumber}`,
        '2026-03-08T21:00 +14155550302',
      ].sort(),
    );
    expect(nyTexts.every((m) => m.status === 'queued' && m.direction === 'outbound')).toBe(true);
    // A question for the Loop's vibe (decision 0043) where "What's new?" was.
    expect(nyTexts.find((m) => m.toAddress === '+14155550302')?.body).toMatch(
      /^Hi Pia! [^"]+\? Time for your "New York" update\. Just reply with your news and photos\.$/,
    );
    // Tokyo: Wednesday 20:30 JST = 11:30Z; Monday 08:00 JST is 23:00Z the Sunday before (the 2nd's was before the start).
    expect((await remindersOf(tokyo.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-03-04T11:30', '2026-03-08T23:00']);
    expect(await remindersOf(paused.id)).toEqual([]);
    expect(
      await db()
        .select()
        .from(messages)
        .where(and(eq(messages.toAddress, '+14155550301'), eq(messages.kind, 'reminder'))),
    ).toEqual([]);
  });
});

describe('daylight-saving days', { timeout: 120_000 }, () => {
  it('send a 02:30 reminder once on spring-forward day and a 01:30 reminder once on fall-back day', async () => {
    clock.set(new Date('2026-03-08T04:00:00Z')); // Saturday 23:00 in New York
    const owner = await signUp(app());
    const spring = await createLoopAs(app(), owner.cookie, {
      name: 'Spring',
      timeZone: 'America/New_York',
      reminderSchedule: [{ day: 'sunday', time: '02:30' }],
    });
    await runUntil(new Date('2026-03-08T12:00:00Z'));
    expect((await remindersOf(spring.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-03-08T07:30']);

    clock.set(new Date('2026-11-01T03:00:00Z')); // Saturday 23:00 in New York
    const later = await signUp(app()); // months later: the first session has long expired
    const fall = await createLoopAs(app(), later.cookie, {
      name: 'Fall',
      timeZone: 'America/New_York',
      reminderSchedule: [{ day: 'sunday', time: '01:30' }],
    });
    await runUntil(new Date('2026-11-01T12:00:00Z'));
    expect((await remindersOf(fall.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-11-01T05:30']);
  });
});
