import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, messages, newsletters, phoneOptOuts, users } from '../../src/db/schema';
import { MINUTE_MS } from '../../src/lib/clock';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { vibeQuestions } from '@loop/shared/reminder-questions';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs, insertUpdate } from '../helpers/loops';
import { testClock } from '../helpers/messaging';

const clock = testClock(new Date('2026-03-02T00:00:00Z')); // a Monday
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
/**
 * These tests are about the Loop's zone: every phone here says nothing of where its holder is (as
 * a number whose area code spans zones), so each member's reminder follows the Loop's zone.
 * Reminders in each member's own zone: test/messaging/quiet-hours.test.ts.
 */
async function tick(mode: 'send' | 'draft' | 'off' = 'send') {
  await db().update(users).set({ phoneTimeZone: '' });
  return runSchedulerTick(t.app.ctx, { now: clock(), mode });
}

/** Ticks every `stepMinutes` until `until`, like the minute cron would (nobody signs up meanwhile). */
async function runUntil(until: Date, stepMinutes = 5, mode: 'send' | 'draft' | 'off' = 'send') {
  await db().update(users).set({ phoneTimeZone: '' });
  while (clock().getTime() < until.getTime()) {
    clock.advance(stepMinutes * MINUTE_MS);
    await runSchedulerTick(t.app.ctx, { now: clock(), mode });
  }
}

async function remindersOf(loopId: number) {
  return db()
    .select()
    .from(messages)
    .where(and(eq(messages.kind, 'reminder'), like(messages.idempotencyKey, `reminder:%`), eq(messages.loopId, loopId)))
    .orderBy(messages.id);
}
const minuteOf = (key: string | null) => key?.split(':').slice(1, 3).join(':');

describe('reminders over a simulated week', { timeout: 120_000 }, () => {
  it('go out at each slot in each Loop zone, skipping paused Loops and opted-out phones', async () => {
    clock.set(new Date('2026-03-02T00:00:00Z'));
    const owner = await signUp(t.app, { firstName: 'Nora' });
    const ny = await createLoopAs(t.app, owner.cookie, { name: 'New York', timeZone: 'America/New_York' }); // Thu 09:00, Sun 17:00
    const tokyo = await createLoopAs(t.app, owner.cookie, {
      name: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      reminderSchedule: [
        { day: 'monday', time: '08:00' },
        { day: 'wednesday', time: '20:30' },
      ],
    });
    const paused = await createLoopAs(t.app, owner.cookie, { name: 'Paused', timeZone: 'UTC' });
    await db().update(loops).set({ paused: true }).where(eq(loops.id, paused.id));
    await addActiveMemberAs(t.app, owner.cookie, ny.id, { phoneNumber: '+14155550301', firstName: 'Opted' });
    await db().insert(phoneOptOuts).values({ phoneNumber: '+14155550301', reason: 'STOP' });
    await addActiveMemberAs(t.app, owner.cookie, ny.id, { phoneNumber: '+14155550302', firstName: 'Pia' });

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
    const owner = await signUp(t.app);
    const spring = await createLoopAs(t.app, owner.cookie, {
      name: 'Spring',
      timeZone: 'America/New_York',
      reminderSchedule: [{ day: 'sunday', time: '02:30' }],
    });
    await runUntil(new Date('2026-03-08T12:00:00Z'));
    expect((await remindersOf(spring.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-03-08T07:30']);

    clock.set(new Date('2026-11-01T03:00:00Z')); // Saturday 23:00 in New York
    const later = await signUp(t.app); // months later: the first session has long expired
    const fall = await createLoopAs(t.app, later.cookie, {
      name: 'Fall',
      timeZone: 'America/New_York',
      reminderSchedule: [{ day: 'sunday', time: '01:30' }],
    });
    await runUntil(new Date('2026-11-01T12:00:00Z'));
    expect((await remindersOf(fall.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-11-01T05:30']);
  });
});

describe('a member of two Loops due at the same minute', () => {
  it('gets one text naming both', async () => {
    clock.set(new Date('2026-04-06T00:00:00Z'));
    const owner = await signUp(t.app, { firstName: 'Max' });
    const schedule = [{ day: 'tuesday', time: '10:00' }];
    const a = await createLoopAs(t.app, owner.cookie, { name: 'Cousins', timeZone: 'Europe/Paris', reminderSchedule: schedule });
    const b = await createLoopAs(t.app, owner.cookie, { name: 'Book Club', timeZone: 'Europe/Berlin', reminderSchedule: schedule });
    await runUntil(new Date('2026-04-08T00:00:00Z'));
    const texts = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.toAddress, owner.account.phoneNumber), eq(messages.kind, 'reminder')));
    expect(texts).toHaveLength(1);
    // The first Loop's question (decision 0043), one of its vibe's.
    const question = vibeQuestions(['family']).find((q) => texts[0]?.body.startsWith(`Hi Max! ${q} `));
    expect(texts[0]?.body).toBe(
      `Hi Max! ${question} Time for your "Cousins" and "Book Club" update. Reply with your news and photos: it goes to all of them, or start with a Loop's name and a colon ("Cousins: ...") to share with just one.`,
    );
    expect(texts[0]?.idempotencyKey).toBe(`reminder:2026-04-07T08:00:${owner.user.id}:${a.id}-${b.id}`);
  });
});

describe('the server was down', () => {
  it('catches a missed reminder up once, and skips one more than three hours late', async () => {
    clock.set(new Date('2026-05-04T00:00:00Z'));
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, {
      name: 'Downtime',
      timeZone: 'UTC',
      reminderSchedule: [
        { day: 'monday', time: '09:00' },
        { day: 'tuesday', time: '09:00' },
      ],
    });
    clock.set(new Date('2026-05-04T10:00:00Z')); // an hour late
    await tick();
    await tick();
    expect((await remindersOf(loop.id)).map((m) => minuteOf(m.idempotencyKey))).toEqual(['2026-05-04T09:00']);
    clock.set(new Date('2026-05-05T12:01:00Z')); // three hours and a minute late
    await tick();
    expect(await remindersOf(loop.id)).toHaveLength(1);
    const [row] = await db().select().from(loops).where(eq(loops.id, loop.id));
    expect(row?.nextReminderAt).toEqual(new Date('2026-05-11T09:00:00Z'));
  });
});

describe('automatic newsletters', () => {
  it('go out at the end of each weekly period with updates, and never for an empty one', async () => {
    clock.set(new Date('2026-06-01T00:00:00Z')); // Monday
    const owner = await signUp(t.app);
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Weekly', timeZone: 'UTC', reminderSchedule: [] });
    await db()
      .update(loops)
      .set({ frequency: 'weekly', nextNewsletterAt: new Date('2026-06-07T18:00:00Z') })
      .where(eq(loops.id, loop.id));
    clock.set(new Date('2026-06-03T12:00:00Z'));
    await insertUpdate(db(), loop.id, owner.user.id, 'We planted tomatoes', [], clock());

    await runUntil(new Date('2026-06-22T00:00:00Z'), 60);
    const sent = await db().select().from(newsletters).where(eq(newsletters.loopId, loop.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ status: 'sent', kind: 'newsletter' });
    expect(sent[0]?.sentAt).toEqual(new Date('2026-06-07T18:00:00Z'));
    expect(sent[0]?.content).toContain('We planted tomatoes');
    const links = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.kind, 'newsletter'), eq(messages.loopId, loop.id)));
    expect(links).toHaveLength(1);
    expect(links[0]?.body).toContain(`/newsletters/${sent[0]?.urlId}`);
    const [row] = await db().select().from(loops).where(eq(loops.id, loop.id));
    expect(row?.nextNewsletterAt).toEqual(new Date('2026-06-28T18:00:00Z'));
  });

  it('follow biweekly and monthly periods, leave drafts in draft mode, and skip paused Loops', async () => {
    clock.set(new Date('2026-07-01T00:00:00Z'));
    const owner = await signUp(t.app);
    const biweekly = await createLoopAs(t.app, owner.cookie, { name: 'Biweekly', timeZone: 'UTC', reminderSchedule: [] });
    const monthly = await createLoopAs(t.app, owner.cookie, { name: 'Monthly', timeZone: 'UTC', reminderSchedule: [] });
    const paused = await createLoopAs(t.app, owner.cookie, { name: 'Paused NL', timeZone: 'UTC', reminderSchedule: [] });
    await db()
      .update(loops)
      .set({ frequency: 'monthly', nextNewsletterAt: new Date('2026-07-31T18:00:00Z') })
      .where(eq(loops.id, monthly.id));
    await db().update(loops).set({ paused: true }).where(eq(loops.id, paused.id));
    for (const id of [biweekly.id, monthly.id, paused.id]) await insertUpdate(db(), id, owner.user.id, `News for ${id}`, [], clock());

    await runUntil(new Date('2026-08-01T00:00:00Z'), 60, 'draft');
    const rows = await db().select().from(newsletters).where(eq(newsletters.status, 'draft'));
    const byLoop = (id: number) => rows.filter((n) => n.loopId === id);
    // Biweekly Sundays (even weeks from 1970-01-04): July 5 and 19. Each draft is written 24 hours
    // ahead (decision 0040); in draft mode it is never sent, so July 5's waits and covers July 19's news too.
    const schedule = (n: (typeof rows)[number]) => [n.periodEnd.toISOString(), n.sendAt?.toISOString()];
    expect(byLoop(biweekly.id).map(schedule)).toEqual([['2026-07-04T18:00:00.000Z', '2026-07-05T18:00:00.000Z']]);
    expect(byLoop(monthly.id).map(schedule)).toEqual([['2026-07-30T18:00:00.000Z', '2026-07-31T18:00:00.000Z']]);
    expect(byLoop(paused.id)).toEqual([]);
    expect(
      await db()
        .select()
        .from(messages)
        .where(and(eq(messages.kind, 'newsletter'), eq(messages.loopId, monthly.id))),
    ).toEqual([]);
  });
});
