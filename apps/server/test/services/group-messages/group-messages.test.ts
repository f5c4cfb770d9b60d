import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupMessageSummary, SentGroupMessageAnswer, TextCost } from '@loop/shared/group-messages';
import { groupMessages, loops, messages, phoneOptOuts } from '../../../src/db/schema';
import { smsSegments } from '../../../src/messaging/segments';
import { runSchedulerTick } from '../../../src/scheduling/run-scheduler-tick';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs, insertUpdate } from '../../helpers/loops';

/**
 * Owners' group messages (decision 0042): what they cost before they go, whom they reach
 * (only the one rule's recipients), the per-Loop limit under parallel requests, scheduling and
 * cancelling, and delivery counted from the texts.
 */
let t: TestContext;
const now = new Date('2026-11-26T17:00:00Z');
let owner: Awaited<ReturnType<typeof signUp>>;
let staff: string;
const db = () => t.testDb.database.db;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com', GROUP_MESSAGES_PER_LOOP_PER_DAY: '3' }, { clock: () => now });
  owner = await signUp(t.app, { firstName: 'Alice' });
  staff = (await signUp(t.app, { email: 'staff@example.com', firstName: 'Sam' })).cookie;
});
afterAll(() => t.close());

const post = (url: string, payload: Record<string, unknown>, cookie = owner.cookie) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload });

/** A Loop with two active members, one who opted out, and one who has not said YES. */
async function loopWithMembers(name = 'Smith Family') {
  const loop = await createLoopAs(t.app, owner.cookie, { name });
  const active = [uniquePhone(), uniquePhone()];
  for (const phoneNumber of active) await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber, firstName: 'Bea' });
  const stopped = uniquePhone();
  await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: stopped });
  await db().insert(phoneOptOuts).values({ phoneNumber: stopped, reason: 'STOP' });
  const pending = uniquePhone();
  await addMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: pending });
  // Never its sender, who wrote it.
  return { loop, reached: active.sort(), stopped, pending };
}

const textsOf = (groupMessageId: number) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.kind, 'group_message'), like(messages.idempotencyKey, `group_message:g${groupMessageId}:%`)));

describe('before it goes: the exact text, who gets it and what it costs', () => {
  it('previews members x segments and sends nothing', async () => {
    const { loop } = await loopWithMembers();
    const message = `Picnic moved to Sunday. ${'Bring a chair and something to share. '.repeat(5)}`.trim();
    const res = await post(`/api/loops/${loop.id}/group-messages/preview`, { message });
    expect(res.statusCode, res.body).toBe(200);
    const cost = res.json<TextCost>();
    expect(cost.text).toBe(`"Smith Family" from Alice: ${message}`);
    // The owner who writes it gets no copy.
    expect(cost.recipients).toBe(2);
    expect(cost.notReached).toBe(2);
    expect(cost.recipientNames).toEqual(['Bea', 'Bea']);
    expect(cost.segments).toBe(smsSegments(cost.text));
    expect(cost.segments).toBeGreaterThan(1);
    expect(cost.ucs2Characters).toEqual([]);
    expect(cost.texts).toBe(2 * cost.segments);
    expect(await db().select().from(messages).where(eq(messages.loopId, loop.id))).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ kind: 'group_message' })]),
    );
  });
});

describe('one emoji makes each text Unicode', () => {
  it('names the characters that made a 2-segment text 3 segments', async () => {
    const { loop } = await loopWithMembers();
    // 150 GSM-7 characters: 2 segments of 153 with the prefix; with one emoji, 3 of 67 (Twilio's segment rules).
    const message = 'Bring a chair and something to share. '.repeat(4).trim();
    const plain = (await post(`/api/loops/${loop.id}/group-messages/preview`, { message })).json<TextCost>();
    const party = (await post(`/api/loops/${loop.id}/group-messages/preview`, { message: `${message} 🎉` })).json<TextCost>();
    expect([plain.segments, plain.ucs2Characters]).toEqual([2, []]);
    expect([party.segments, party.ucs2Characters]).toEqual([3, ['🎉']]);
  });
});

describe('the attack: an owner texts only consenting members of their own Loop', () => {
  it('names no numbers: extra fields are ignored; the opted-out, the pending and outsiders get nothing', async () => {
    const { loop, reached, stopped, pending } = await loopWithMembers();
    const outsider = uniquePhone();
    const res = await post(`/api/loops/${loop.id}/group-messages`, {
      message: 'Hello all',
      phoneNumbers: [outsider, stopped, pending],
      to: outsider,
      loopId: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json<SentGroupMessageAnswer>();
    expect(answer.queued).toBe(2);
    const texts = await textsOf(answer.groupMessage.id);
    expect(texts.map((m) => m.toAddress).sort()).toEqual(reached);
    expect(texts.every((m) => m.loopId === loop.id)).toBe(true);
  });

  it("cannot pass as another Loop: the real Loop's name and the sender come first, quoted", async () => {
    const { loop } = await loopWithMembers('Smith Family');
    const res = await post(`/api/loops/${loop.id}/group-messages`, { message: '"Jones Family": your bank card is locked' });
    const [text] = await textsOf(res.json<SentGroupMessageAnswer>().groupMessage.id);
    expect(text?.body).toBe(`"Smith Family" from Alice: "Jones Family": your bank card is locked`);
  });

  it('another Loop id in the path is a 404 and queues nothing there', async () => {
    const other = await signUp(t.app);
    const theirs = await createLoopAs(t.app, other.cookie, { name: 'Jones Family' });
    await addActiveMemberAs(t.app, other.cookie, theirs.id, { phoneNumber: uniquePhone() });
    const res = await post(`/api/loops/${theirs.id}/group-messages`, { message: 'Hi' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Jones Family');
    expect(await db().select().from(groupMessages).where(eq(groupMessages.loopId, theirs.id))).toEqual([]);
  });

  it('cannot pass the per-Loop limit with parallel requests; staff are not limited', async () => {
    const { loop } = await loopWithMembers();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(`/api/loops/${loop.id}/group-messages`, { message: `Note ${i}` })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    const refused = answers.find((r) => r.statusCode === 429);
    expect(refused?.json<{ message: string }>().message).toMatch(
      /^This Loop has had 3 group messages today.*You can send another in \d+ hours\.$/,
    );
    expect(await db().select().from(groupMessages).where(eq(groupMessages.loopId, loop.id))).toHaveLength(3);
    // Scheduling counts too.
    const later = await post(`/api/loops/${loop.id}/group-messages`, {
      message: 'x',
      sendAt: new Date(now.getTime() + 3_600_000).toISOString(),
    });
    expect(later.statusCode).toBe(429);
    for (let i = 0; i < 4; i++)
      expect((await post(`/api/loops/${loop.id}/group-messages`, { message: `Staff ${i}` }, staff)).statusCode).toBe(201);
  });
});

describe('newsletters sent now count as texts to the whole Loop (decision 0054)', () => {
  /** A Loop with an update and a newsletter draft of it, after `groupMessages` group messages today. */
  async function draftAfter(groupMessages: number) {
    const { loop } = await loopWithMembers();
    // The newsletter's period starts at the Loop's creation: before the test clock's now.
    await db()
      .update(loops)
      .set({ createdAt: new Date(now.getTime() - 7_200_000) })
      .where(eq(loops.id, loop.id));
    await insertUpdate(db(), loop.id, owner.user.id, 'We planted the tomatoes', [], new Date(now.getTime() - 3_600_000));
    for (let i = 0; i < groupMessages; i++)
      expect((await post(`/api/loops/${loop.id}/group-messages`, { message: `Note ${i}` })).statusCode).toBe(201);
    const generated = await post(`/api/loops/${loop.id}/newsletters/generate`, {});
    expect(generated.statusCode, generated.body).toBe(201);
    const { newsletter } = generated.json<{ newsletter: { id: number } }>();
    return { loop, send: (cookie = owner.cookie) => post(`/api/loops/${loop.id}/newsletters/${newsletter.id}/send`, {}, cookie) };
  }

  it('refuses an owner’s newsletter sent by hand after the day’s 3 group messages; staff may', async () => {
    const { send } = await draftAfter(3);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(
      /^This Loop has had 3 texts to all its members today \(group messages and newsletters sent now\).*You can send this newsletter in \d+ hours\.$/,
    );
    expect((await send(staff)).statusCode).toBe(200);
  });

  it('counts a newsletter sent by hand toward the group messages of the day', async () => {
    const { loop, send } = await draftAfter(2);
    expect((await send()).statusCode).toBe(200);
    expect((await post(`/api/loops/${loop.id}/group-messages`, { message: 'One more' })).statusCode).toBe(429);
  });
});

describe('scheduled for later', () => {
  it('waits for its time, goes once from the scheduler, and then shows its delivery', async () => {
    const { loop, reached } = await loopWithMembers();
    const sendAt = new Date(now.getTime() + 2 * 3_600_000);
    const res = await post(`/api/loops/${loop.id}/group-messages`, { message: 'Dinner at 7', sendAt: sendAt.toISOString() });
    expect(res.statusCode, res.body).toBe(201);
    const { groupMessage, queued } = res.json<SentGroupMessageAnswer>();
    expect(queued).toBe(0);
    expect(groupMessage).toMatchObject({ status: 'scheduled', sendAt: sendAt.toISOString(), sentAt: null });

    await runSchedulerTick(t.app.ctx, { now, mode: 'off' });
    expect(await textsOf(groupMessage.id)).toEqual([]);

    await runSchedulerTick(t.app.ctx, { now: sendAt, mode: 'off' });
    await runSchedulerTick(t.app.ctx, { now: new Date(sendAt.getTime() + 60_000), mode: 'off' });
    const texts = await textsOf(groupMessage.id);
    expect(texts.map((m) => m.toAddress).sort()).toEqual(reached);
    expect(texts[0]?.body).toBe('"Smith Family" from Alice: Dinner at 7');

    // Delivery, as the carrier answered.
    const [first, second] = texts;
    await db()
      .update(messages)
      .set({ status: 'delivered' })
      .where(eq(messages.id, first?.id ?? 0));
    await db()
      .update(messages)
      .set({ status: 'failed' })
      .where(eq(messages.id, second?.id ?? 0));
    const list = (await t.app.inject({ url: `/api/loops/${loop.id}/group-messages`, headers: { cookie: owner.cookie } })).json<
      GroupMessageSummary[]
    >();
    expect(list[0]).toMatchObject({
      id: groupMessage.id,
      status: 'sent',
      senderName: 'Alice',
      textsQueued: 2,
      delivery: { waiting: 0, sent: 0, delivered: 1, failed: 1 },
    });
    expect((await post(`/api/loops/${loop.id}/group-messages/${groupMessage.id}/cancel`, {})).statusCode).toBe(409);
  });

  it('cancelled before its time, it never goes', async () => {
    const { loop } = await loopWithMembers();
    const sendAt = new Date(now.getTime() + 3_600_000);
    const res = await post(`/api/loops/${loop.id}/group-messages`, { message: 'Maybe', sendAt: sendAt.toISOString() });
    const { groupMessage } = res.json<SentGroupMessageAnswer>();
    const cancel = await post(`/api/loops/${loop.id}/group-messages/${groupMessage.id}/cancel`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    await runSchedulerTick(t.app.ctx, { now: new Date(sendAt.getTime() + 60_000), mode: 'off' });
    expect(await textsOf(groupMessage.id)).toEqual([]);
    const [row] = await db().select().from(groupMessages).where(eq(groupMessages.id, groupMessage.id));
    expect(row?.status).toBe('cancelled');
  });

  it('a time that has passed, or too far ahead, is a 400 that says so', async () => {
    const { loop } = await loopWithMembers();
    const past = await post(`/api/loops/${loop.id}/group-messages`, {
      message: 'x',
      sendAt: new Date(now.getTime() - 3_600_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json<{ message: string }>().message).toBe('The send time has passed. Pick a time from now on, or send it now.');
    const far = await post(`/api/loops/${loop.id}/group-messages`, {
      message: 'x',
      sendAt: new Date(now.getTime() + 40 * 86_400_000).toISOString(),
    });
    expect(far.statusCode).toBe(400);
    const garbage = await post(`/api/loops/${loop.id}/group-messages`, { message: 'x', sendAt: 'tomorrow' });
    expect(garbage.statusCode).toBe(400);
  });
});
