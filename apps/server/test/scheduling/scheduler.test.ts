import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loops, messages, newsletters } from '../../src/db/schema';
import { vibeQuestions } from '@loop/shared/reminder-questions';
import { signUp } from '../helpers/app';
import { createLoopAs, insertUpdate } from '../helpers/loops';
import { minuteOf, schedulerWorld } from './scheduler-world';

// The simulated weeks and daylight-saving days: scheduler-weeks.slow.test.ts (npm run test:slow).
const { clock, app, db, tick, runUntil, remindersOf } = schedulerWorld();

describe('a member of two Loops due at the same minute', () => {
  it('gets one text naming both', async () => {
    clock.set(new Date('2026-04-06T00:00:00Z'));
    const owner = await signUp(app(), { firstName: 'Max' });
    const schedule = [{ day: 'tuesday', time: '10:00' }];
    const a = await createLoopAs(app(), owner.cookie, { name: 'Cousins', timeZone: 'Europe/Paris', reminderSchedule: schedule });
    const b = await createLoopAs(app(), owner.cookie, { name: 'Book Club', timeZone: 'Europe/Berlin', reminderSchedule: schedule });
    await runUntil(new Date('2026-04-08T00:00:00Z'), 60); // an hour a tick: 10:00 in both zones is on the hour
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
    const owner = await signUp(app());
    const loop = await createLoopAs(app(), owner.cookie, {
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
    const owner = await signUp(app());
    const loop = await createLoopAs(app(), owner.cookie, { name: 'Weekly', timeZone: 'UTC', reminderSchedule: [] });
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
    const owner = await signUp(app());
    const biweekly = await createLoopAs(app(), owner.cookie, { name: 'Biweekly', timeZone: 'UTC', reminderSchedule: [] });
    const monthly = await createLoopAs(app(), owner.cookie, { name: 'Monthly', timeZone: 'UTC', reminderSchedule: [] });
    const paused = await createLoopAs(app(), owner.cookie, { name: 'Paused NL', timeZone: 'UTC', reminderSchedule: [] });
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
