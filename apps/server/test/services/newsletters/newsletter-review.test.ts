import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, messages, newsletters, users } from '../../../src/db/schema';
import { runSchedulerTick } from '../../../src/scheduling/run-scheduler-tick';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { createLoopAs, insertUpdate } from '../../helpers/loops';
import { testClock } from '../../helpers/messaging';
import { callAs } from '../../helpers/newsletters';

/**
 * The owner's review of each scheduled newsletter (decision 0040): the draft 24 hours ahead and
 * its text to the owner, the automatic send after it, and approval first: an unapproved draft is
 * never sent, gets one more text 2 hours ahead, and waits until approved or skipped.
 */
const clock = testClock(new Date('2026-06-01T00:00:00Z')); // a Monday
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://loop.example' }, { clock });
});
afterAll(() => t.close());
const db = () => t.testDb.database.db;

const SEND_AT = new Date('2026-06-07T18:00:00Z'); // Sunday 18:00 UTC

async function tickUntil(until: Date, stepMinutes = 30) {
  while (clock().getTime() < until.getTime()) {
    clock.advance(stepMinutes * 60_000);
    await runSchedulerTick(t.app.ctx, { now: clock(), mode: 'send' });
  }
}

/** A weekly Loop in UTC whose owner's own zone is unset (their texts follow the Loop's), with one update. */
async function weeklyLoop(name: string, review: boolean) {
  clock.set(new Date('2026-06-01T00:00:00Z'));
  const owner = await signUp(t.app, { firstName: 'Olive' });
  await db().update(users).set({ timeZone: null, phoneTimeZone: '' }).where(eq(users.id, owner.user.id));
  const loop = await createLoopAs(t.app, owner.cookie, { name, timeZone: 'UTC', reminderSchedule: [] });
  const put = await callAs(t.app, owner.cookie, 'PUT', `/api/loops/${loop.id}`, { newsletterReview: review });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().newsletterReview).toBe(review);
  await db().update(loops).set({ frequency: 'weekly', nextNewsletterAt: SEND_AT }).where(eq(loops.id, loop.id));
  clock.set(new Date('2026-06-03T12:00:00Z'));
  await insertUpdate(db(), loop.id, owner.user.id, 'We planted tomatoes', [], clock());
  return { owner, loop };
}

const ownerTexts = (loopId: number) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.kind, 'newsletter_review'), eq(messages.loopId, loopId)))
    .orderBy(messages.id);
const linkTexts = (loopId: number) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.kind, 'newsletter'), eq(messages.loopId, loopId)))
    .orderBy(messages.id);
const draftsOf = (loopId: number) => db().select().from(newsletters).where(eq(newsletters.loopId, loopId)).orderBy(newsletters.id);

describe('a Loop that sends automatically', () => {
  it("writes the draft 24 hours ahead, texts the owner its link, then sends the owner's edit at its time, once", async () => {
    const { owner, loop } = await weeklyLoop('Smith Family', false);
    await tickUntil(new Date('2026-06-06T17:30:00Z'));
    expect(await draftsOf(loop.id)).toEqual([]);

    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    expect(draft).toMatchObject({ status: 'draft', sendAt: SEND_AT });
    const [preview, ...more] = await ownerTexts(loop.id);
    expect(more).toEqual([]);
    expect(preview?.toAddress).toBe(owner.account.phoneNumber);
    expect(preview?.body).toBe(
      `Your "Smith Family" newsletter goes out tomorrow at 6:00 PM UTC: look at it here https://loop.example/loops/${loop.id}/newsletters/${draft?.id}`,
    );
    expect(await linkTexts(loop.id)).toEqual([]);

    // The owner reads and edits it; the upcoming draft is theirs to see.
    const listed = await callAs(t.app, owner.cookie, 'GET', `/api/loops/${loop.id}/newsletters`);
    expect(listed.json()).toMatchObject({ newsletterReview: false, nextNewsletterAt: SEND_AT.toISOString(), upcoming: { id: draft?.id } });
    const edit = await callAs(t.app, owner.cookie, 'PUT', `/api/loops/${loop.id}/newsletters/${draft?.id}`, {
      content: '# Edited by Olive',
    });
    expect(edit.statusCode, edit.body).toBe(200);

    await tickUntil(new Date('2026-06-07T17:30:00Z'));
    expect(await linkTexts(loop.id)).toEqual([]);
    await tickUntil(new Date('2026-06-09T00:00:00Z'));
    const [sent, ...others] = await draftsOf(loop.id);
    expect(others).toEqual([]);
    expect(sent).toMatchObject({ status: 'sent', sentAt: SEND_AT, content: '# Edited by Olive' });
    const links = await linkTexts(loop.id);
    expect(links).toHaveLength(1);
    expect(links[0]?.id).toBeGreaterThan(preview?.id ?? Infinity);
    expect(await ownerTexts(loop.id)).toHaveLength(1);
  });

  it("puts news texted after the draft (the members' last call) into an unedited draft at its time; an edited one goes as edited", async () => {
    const fresh = await weeklyLoop('Late News', false);
    const edited = await weeklyLoop('Kept Words', false);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [freshDraft] = await draftsOf(fresh.loop.id);
    const [editedDraft] = await draftsOf(edited.loop.id);
    expect(freshDraft?.content).not.toContain('The tomatoes are red');
    const edit = await callAs(t.app, edited.owner.cookie, 'PUT', `/api/loops/${edited.loop.id}/newsletters/${editedDraft?.id}`, {
      content: '# Edited by Olive',
    });
    expect(edit.statusCode, edit.body).toBe(200);

    // News the day before, after the drafts were written.
    await insertUpdate(db(), fresh.loop.id, fresh.owner.user.id, 'The tomatoes are red', [], new Date('2026-06-07T09:00:00Z'));
    await insertUpdate(db(), edited.loop.id, edited.owner.user.id, 'The tomatoes are red', [], new Date('2026-06-07T09:00:00Z'));
    await tickUntil(new Date('2026-06-08T00:00:00Z'));

    const [freshSent] = await draftsOf(fresh.loop.id);
    expect(freshSent).toMatchObject({ id: freshDraft?.id, status: 'sent', urlId: freshDraft?.urlId });
    expect(freshSent?.content).toContain('We planted tomatoes');
    expect(freshSent?.content).toContain('The tomatoes are red');
    const [editedSent] = await draftsOf(edited.loop.id);
    expect(editedSent).toMatchObject({ status: 'sent', content: '# Edited by Olive' });
  });

  it('sends nothing for a skipped issue; its updates go into the next one', async () => {
    const { owner, loop } = await weeklyLoop('Skippers', false);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    const skip = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/skip`);
    expect(skip.statusCode, skip.body).toBe(200);
    expect(skip.json().newsletter.skippedAt).not.toBeNull();
    const again = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/send`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/skipped/);

    await tickUntil(new Date('2026-06-15T00:00:00Z'));
    expect(await linkTexts(loop.id)).toHaveLength(1);
    const rows = await draftsOf(loop.id);
    expect(rows.map((r) => [r.status, r.skippedAt !== null, r.sendAt?.toISOString()])).toEqual([
      ['draft', true, SEND_AT.toISOString()],
      ['sent', false, '2026-06-14T18:00:00.000Z'],
    ]);
    expect(rows[1]?.content).toContain('We planted tomatoes');
  });

  it('sends a moved draft at its new time, not its old one', async () => {
    const { owner, loop } = await weeklyLoop('Movers', false);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    const url = `/api/loops/${loop.id}/newsletters/${draft?.id}/move`;
    expect((await callAs(t.app, owner.cookie, 'POST', url, { sendAt: '2026-06-01T00:00:00Z' })).statusCode).toBe(400);
    expect((await callAs(t.app, owner.cookie, 'POST', url, { sendAt: 'tomorrow' })).json().message).toMatch(/sendAt/);
    const moved = await callAs(t.app, owner.cookie, 'POST', url, { sendAt: '2026-06-08T09:00:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    await tickUntil(new Date('2026-06-08T08:30:00Z'));
    expect(await linkTexts(loop.id)).toEqual([]);
    await tickUntil(new Date('2026-06-08T09:30:00Z'));
    expect(await linkTexts(loop.id)).toHaveLength(1);
    expect((await draftsOf(loop.id))[0]?.sentAt).toEqual(new Date('2026-06-08T09:00:00Z'));
  });
});

describe('a Loop that asks for approval first', () => {
  it('never sends an unapproved draft: one more text 2 hours ahead, then the draft waits, kept', async () => {
    const { owner, loop } = await weeklyLoop('Careful', true);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    expect((await ownerTexts(loop.id)).map((m) => m.body)).toEqual([
      `Your "Careful" newsletter goes out tomorrow at 6:00 PM UTC once you approve it: look at it here https://loop.example/loops/${loop.id}/newsletters/${draft?.id}`,
    ]);
    await tickUntil(new Date('2026-06-07T15:30:00Z'));
    expect(await ownerTexts(loop.id)).toHaveLength(1);
    await tickUntil(new Date('2026-06-07T16:00:00Z'));
    const texts = await ownerTexts(loop.id);
    expect(texts).toHaveLength(2);
    expect(texts[1]?.body).toBe(
      `Your "Careful" newsletter is waiting for your approval to go out today at 6:00 PM UTC. Approve, edit or skip it here https://loop.example/loops/${loop.id}/newsletters/${draft?.id}`,
    );

    // Past the next week's slot too: nothing went to members, no second draft, the first one is intact.
    await insertUpdate(db(), loop.id, owner.user.id, 'Later news', [], clock());
    await tickUntil(new Date('2026-06-14T20:00:00Z'), 60);
    expect(await linkTexts(loop.id)).toEqual([]);
    expect(await ownerTexts(loop.id)).toHaveLength(2);
    const rows = await draftsOf(loop.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: draft?.id, status: 'draft', skippedAt: null, approvedAt: null, content: draft?.content });

    // Approved late, it goes at once, exactly once.
    const approve = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/approve`);
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json()).toMatchObject({ newsletter: { status: 'sent' }, textsQueued: 1 });
    await tickUntil(new Date('2026-06-14T23:00:00Z'));
    expect(await linkTexts(loop.id)).toHaveLength(1);
    const twice = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/approve`);
    expect(twice.statusCode).toBe(409);
  });

  it('sends an approved draft at its time, with no last call', async () => {
    const { owner, loop } = await weeklyLoop('Approved', true);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    const approve = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/approve`);
    expect(approve.json()).toMatchObject({ newsletter: { status: 'draft' }, textsQueued: 0 });
    expect(approve.json().newsletter.approvedAt).not.toBeNull();
    await tickUntil(new Date('2026-06-07T17:30:00Z'));
    expect(await linkTexts(loop.id)).toEqual([]);
    await tickUntil(new Date('2026-06-07T18:00:00Z'));
    expect(await linkTexts(loop.id)).toHaveLength(1);
    expect(await ownerTexts(loop.id)).toHaveLength(1);
  });

  it('withdrawing the approval makes the draft wait for the owner again: it does not go at its time', async () => {
    const { owner, loop } = await weeklyLoop('Withdrawn', true);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    const path = `/api/loops/${loop.id}/newsletters/${draft?.id}`;
    await callAs(t.app, owner.cookie, 'POST', `${path}/approve`);
    const withdrawn = await callAs(t.app, owner.cookie, 'POST', `${path}/unapprove`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ newsletter: { status: 'draft', approvedAt: null } });
    await tickUntil(new Date('2026-06-07T19:00:00Z'));
    expect(await linkTexts(loop.id)).toEqual([]);
    expect((await draftsOf(loop.id))[0]).toMatchObject({ status: 'draft', approvedAt: null });
  });

  it('regenerating a scheduled draft keeps its send time and asks for approval again', async () => {
    const { owner, loop } = await weeklyLoop('Regen', true);
    await tickUntil(new Date('2026-06-06T18:00:00Z'));
    const [draft] = await draftsOf(loop.id);
    await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft?.id}/approve`);
    await insertUpdate(db(), loop.id, owner.user.id, 'A late photo of the tomatoes', [], clock());
    clock.advance(1000);
    const regen = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/generate`);
    expect(regen.statusCode, regen.body).toBe(201);
    expect(regen.json().newsletter).toMatchObject({ id: draft?.id, sendAt: SEND_AT.toISOString(), approvedAt: null });
    expect(regen.json().newsletter.content).toContain('A late photo');
  });
});

describe('a draft made by hand', () => {
  it('gets the same 24-hour preview text once it has a send time (Generate Draft, then Move), once per time', async () => {
    const { owner, loop } = await weeklyLoop('By hand', false);
    clock.advance(60_000);
    const generated = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/generate`);
    expect(generated.statusCode, generated.body).toBe(201);
    const draft = generated.json<{ newsletter: { id: number; sendAt: string | null } }>().newsletter;
    expect(draft.sendAt).toBeNull();
    // Moved to Thursday 18:00, 30 hours ahead: no text until it is 24 hours away.
    const sendAt = new Date('2026-06-04T18:00:00Z');
    const moved = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/move`, {
      sendAt: sendAt.toISOString(),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await tickUntil(new Date('2026-06-03T17:30:00Z'));
    expect(await ownerTexts(loop.id)).toEqual([]);
    await tickUntil(new Date('2026-06-03T19:00:00Z'));
    await tickUntil(new Date('2026-06-04T12:00:00Z'));
    const texts = await ownerTexts(loop.id);
    expect(texts.map((m) => m.idempotencyKey)).toEqual([`newsletter_review:preview:${draft.id}:${sendAt.getTime()}`]);
    expect(texts[0]?.body).toBe(
      `Your "By hand" newsletter goes out tomorrow at 6:00 PM UTC: look at it here https://loop.example/loops/${loop.id}/newsletters/${draft.id}`,
    );
    expect(texts[0]?.toAddress).toBe(owner.account.phoneNumber);
  });
});
