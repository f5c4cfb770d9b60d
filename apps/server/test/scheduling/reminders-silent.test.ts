import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_QUESTION_LIMITS, vibeQuestions, type ComingIssueAnswer, type ReminderQuestionsAnswer } from '@loop/shared/reminder-questions';
import { loops, messages, newsletters, users } from '../../src/db/schema';
import { HOUR_MS } from '../../src/lib/clock';
import { smsSegments } from '../../src/messaging/segments';
import { reminderText } from '../../src/scheduling/reminder-text';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { pickQuestion } from '../../src/services/reminders/pick-question';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs, insertUpdate } from '../helpers/loops';
import { testClock } from '../helpers/messaging';
import { callAs, generateAs } from '../helpers/newsletters';

/**
 * Decision 0043: reminders ask a question for the Loop's vibe (or the owner's own), never the same
 * twice in a row; only members who sent nothing since the last newsletter are reminded; the day
 * before the newsletter those still silent get a last call; those who posted get nothing.
 */
const clock = testClock(new Date('2026-03-02T00:00:00Z')); // a Monday
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());
const db = () => t.testDb.database.db;

/** Ticks every hour (reminders here are on the hour) until `until`. */
async function runUntil(until: Date, mode: 'send' | 'draft' | 'off' = 'send') {
  while (clock().getTime() < until.getTime()) {
    clock.advance(HOUR_MS);
    await db().update(users).set({ phoneTimeZone: '' });
    await runSchedulerTick(t.app.ctx, { now: clock(), mode });
  }
}

async function textsOf(loopId: number, keyPrefix: 'reminder' | 'last-call') {
  return db()
    .select()
    .from(messages)
    .where(and(eq(messages.loopId, loopId), eq(messages.kind, 'reminder'), like(messages.idempotencyKey, `${keyPrefix}:%`)))
    .orderBy(messages.id);
}

/** The question a reminder asked: what stands between "Hi "Name"! " and " Time for your". */
const questionOf = (body: string) => /^Hi (?:"[^"]*"|[^!"]*)! (.*) Time for your /.exec(body)?.[1];

describe('who is nudged', { timeout: 120_000 }, () => {
  it('reminds only the silent, gives those still silent a last call the day before, and starts again after the newsletter', async () => {
    clock.set(new Date('2026-03-02T00:00:00Z'));
    const owner = await signUp(t.app, { firstName: 'Olga' });
    // Thursday 09:00 and Sunday 17:00 UTC, a newsletter every other Sunday at 18:00.
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Smiths', timeZone: 'UTC', frequency: 'weekly' });
    const pia = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550401', firstName: 'Pia' });
    const quinn = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550402', firstName: 'Quinn' });
    const [row] = await db().select({ at: loops.nextNewsletterAt }).from(loops).where(eq(loops.id, loop.id));
    expect(row?.at?.toISOString()).toBe('2026-03-08T18:00:00.000Z');

    // Quinn posts on Tuesday: Thursday's reminder goes to Olga and Pia only.
    await runUntil(new Date('2026-03-03T12:00:00Z'));
    await insertUpdate(db(), loop.id, quinn.userId, 'Tuesday news', [], clock());
    await runUntil(new Date('2026-03-05T10:00:00Z'));
    const thursday = await textsOf(loop.id, 'reminder');
    expect(thursday.map((m) => m.toAddress).sort()).toEqual([owner.account.phoneNumber, '+14155550401'].sort());

    // Pia answers on Friday; on Saturday at 18:00, a day before the newsletter, only Olga is still silent.
    await insertUpdate(db(), loop.id, pia.userId, 'Friday photo', [], new Date('2026-03-06T08:00:00Z'));
    await runUntil(new Date('2026-03-07T20:00:00Z'));
    const lastCalls = await textsOf(loop.id, 'last-call');
    expect(lastCalls.map((m) => m.toAddress)).toEqual([owner.account.phoneNumber]);
    expect(lastCalls[0]?.body).toBe(
      'Hi Olga! Last call: the "Smiths" newsletter goes out tomorrow. Just reply with your news or a photo today.',
    );
    expect(lastCalls[0]?.idempotencyKey).toBe(`last-call:${owner.user.id}:${loop.id}@2026-03-08T18:00:00.000Z`);

    // Sunday 17:00: Olga alone again (Pia and Quinn posted); 18:00 the newsletter; the next
    // period starts empty, so Thursday's reminder goes to all three; the next last call too.
    await runUntil(new Date('2026-03-12T10:00:00Z'));
    const after = await textsOf(loop.id, 'reminder');
    const minuteOf = (key: string | null) => key?.split(':').slice(1, 3).join(':');
    expect(
      after
        .slice(thursday.length)
        .map((m) => `${minuteOf(m.idempotencyKey)} ${m.toAddress}`)
        .sort(),
    ).toEqual(
      [
        `2026-03-08T17:00 ${owner.account.phoneNumber}`,
        `2026-03-12T09:00 ${owner.account.phoneNumber}`,
        '2026-03-12T09:00 +14155550401',
        '2026-03-12T09:00 +14155550402',
      ].sort(),
    );
    // One last call per newsletter, never repeated by later ticks.
    expect(await textsOf(loop.id, 'last-call')).toHaveLength(1);
  });
});

describe('questions', { timeout: 120_000 }, () => {
  it("rotate through the vibe's and the owner's own, never the same twice in a row", async () => {
    clock.set(new Date('2026-06-01T00:00:00Z')); // a Monday
    const owner = await signUp(t.app, { firstName: 'Ada' });
    const loop = await createLoopAs(t.app, owner.cookie, {
      name: 'Team',
      vibe: ['co-workers'],
      timeZone: 'UTC',
      reminderSchedule: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
        day,
        time: '09:00',
      })),
    });
    const own = ['Who brought cake this week?', 'What did the intern teach you?'];
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}/reminder-questions`,
      headers: { cookie: owner.cookie },
      payload: { questions: own },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // No newsletter in the way: reminders only.
    await runUntil(new Date('2026-06-22T10:00:00Z'), 'off');
    const asked = (await textsOf(loop.id, 'reminder')).map((m) => questionOf(m.body));
    expect(asked).toHaveLength(22); // Every day, June 1 to June 22 at 09:00.
    for (let i = 1; i < asked.length; i++) expect(asked[i]).not.toBe(asked[i - 1]);
    const allowed = new Set([...vibeQuestions(['co-workers']), ...own.map((q) => `Your organizer asks: "${q}"`)]);
    for (const q of asked) expect(allowed.has(q ?? ''), q).toBe(true);
    expect(asked.some((q) => q?.startsWith('Your organizer asks:'))).toBe(true);
    expect(asked.some((q) => vibeQuestions(['co-workers']).includes(q ?? ''))).toBe(true);
    // Not the family's: the vibe is respected.
    expect(asked.some((q) => q === 'Any news from the kids?')).toBe(false);
  });

  it('never repeat the last one, whatever the slot', () => {
    for (let i = 0; i < 500; i++) {
      const slot = new Date(Date.UTC(2026, 0, 1, 9) + i * HOUR_MS);
      const first = pickQuestion({ loopId: i, slot, vibes: ['family'], own: ['Only one?'], last: null });
      const next = pickQuestion({ loopId: i, slot, vibes: ['family'], own: ['Only one?'], last: first.text });
      expect(next.text).not.toBe(first.text);
    }
    // Only the owner's one question left and it was the last: a vibe question instead.
    expect(pickQuestion({ loopId: 1, slot: new Date(), vibes: [], own: ['Only one?'], last: 'Only one?' }).own).toBe(false);
  });

  it('are a few dozen per vibe, each one SMS-safe (GSM-7, short)', () => {
    for (const vibe of ['family', 'friends', 'parents', 'co-workers', 'solo', 'fun', 'casual', 'funny', 'formal', 'deep']) {
      const list = vibeQuestions([vibe]);
      expect(list.length).toBeGreaterThanOrEqual(24);
      for (const q of list) {
        expect(q).toMatch(/^[A-Za-z0-9 '(),.?]+$/);
        expect(q.length).toBeLessThanOrEqual(60);
        // Decision 0038's budget: with names of usual length the reminder stays one SMS segment.
        expect(smsSegments(reminderText('Margaret', ['Smith Family'], { text: q, own: false }))).toBe(1);
      }
    }
  });
});

describe("the owner's own questions", () => {
  it('are checked like names: length, links, phone numbers, duplicates, how many', async () => {
    const owner = await signUp(t.app, { firstName: 'Bo' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Checks' });
    const put = (questions: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/loops/${loop.id}/reminder-questions`,
        headers: { cookie: owner.cookie },
        payload: { questions },
      });
    const refused: [unknown, RegExp][] = [
      [['Hi'], /at least 5 characters/],
      [['x'.repeat(OWN_QUESTION_LIMITS.maxChars + 1)], /at most 120 characters/],
      [['Win a prize at bit.ly/abc'], /can't contain a link/],
      [['Call me at 415 555 0199'], /can't contain a phone number/],
      [['Any news?', 'any NEWS?'], /already in the list/],
      [Array.from({ length: OWN_QUESTION_LIMITS.count + 1 }, (_, i) => `Question number ${i}?`), /at most 20 questions/],
      ['not a list', /list/],
    ];
    for (const [questions, message] of refused) {
      const res = await put(questions);
      expect(res.statusCode, JSON.stringify(questions)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const ok = await put(['  Who   visited\nGrandma?  ']);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<ReminderQuestionsAnswer>().questions).toEqual(['Who visited Grandma?']);
    const read = await t.app.inject({ url: `/api/loops/${loop.id}/reminder-questions`, headers: { cookie: owner.cookie } });
    expect(read.json<ReminderQuestionsAnswer>().questions).toEqual(['Who visited Grandma?']);
    expect(read.json<ReminderQuestionsAnswer>().vibeQuestions).toContain('Any news from the kids?');
  });
});

describe('the coming issue', () => {
  it('lists who has and has not sent something since the last newsletter', async () => {
    const owner = await signUp(t.app, { firstName: 'Cy' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'Who sent' });
    const dee = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550411', firstName: 'Dee' });
    await insertUpdate(db(), loop.id, dee.userId, 'Hello', [], clock());
    await insertUpdate(db(), loop.id, dee.userId, 'Again', [], clock());
    const res = await t.app.inject({ url: `/api/loops/${loop.id}/coming-issue`, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ComingIssueAnswer>();
    expect(answer.sent.map((m) => [m.firstName, m.updates])).toEqual([['Dee', 2]]);
    expect(answer.silent.map((m) => m.firstName)).toEqual(['Cy']);
  });

  it('starts again after the Loop sends a newsletter: what was sent before it no longer counts', async () => {
    const owner = await signUp(t.app, { firstName: 'Eve' });
    const loop = await createLoopAs(t.app, owner.cookie, { name: 'After one issue' });
    const fay = await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: '+14155550412', firstName: 'Fay' });
    await insertUpdate(db(), loop.id, fay.userId, 'Before the issue', [], clock());
    clock.advance(60_000);
    const draft = await generateAs(t.app, owner.cookie, loop.id);
    const sent = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`);
    expect(sent.statusCode).toBe(200);
    const res = await t.app.inject({ url: `/api/loops/${loop.id}/coming-issue`, headers: { cookie: owner.cookie } });
    const answer = res.json<ComingIssueAnswer>();
    expect(answer.sent).toEqual([]);
    expect(answer.silent.map((m) => m.firstName)).toEqual(['Eve', 'Fay']);
    const [issue] = await db().select({ periodEnd: newsletters.periodEnd }).from(newsletters).where(eq(newsletters.id, draft.id));
    expect(answer.since).toBe(issue?.periodEnd.toISOString());
  });
});
