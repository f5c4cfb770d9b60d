import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, messages, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { claimTexts } from '../../src/outbox/texts/claim-texts';
import { textsChannel } from '../../src/outbox/texts/channel';
import { enqueueLoopTexts, enqueueText } from '../../src/messaging/outbox';
import { createPacer } from '../../src/outbox/pacer';
import { sendDueTexts } from '../../src/outbox/texts/send-texts';
import { createLoop, createPerson, testClock, textsTo, useFakeTwilioApp } from '../helpers/messaging';

// Sending in batches: one claim per batch, texts side by side, `sent` recorded a group at a time.
const clock = testClock();
const env = useFakeTwilioApp({ clock });
const { db } = env;

let counter = 0;
const queue = (userId: number, body: string) =>
  db().transaction((tx) => enqueueText(tx, { kind: 'group_message', userId, body, idempotencyKey: `batch-test:${++counter}` }));

/** A Loop of `count` members with fresh phones, inserted set-wise. */
async function bigLoop(count: number) {
  const creator = await createPerson(db());
  const loop = await createLoop(db(), { name: 'Everyone', memberIds: [creator.id] });
  // A real area code (628, San Francisco): Loop texts only numbers of a kind people hold (decision 0030).
  const prefix = `+1628${Math.floor(Math.random() * 100) + 900}`;
  const result = await db().execute(sql`
    with people as (
      insert into ${users} (first_name, last_name, phone_number)
      select 'Member', 'No. ' || g, ${prefix} || lpad(g::text, 4, '0') from generate_series(1, ${count - 1}) g
      returning id, phone_number)
    insert into ${members} (loop_id, user_id, status) select ${loop.id}, id, 'active' from people
    returning user_id`);
  // node-postgres and PGlite both answer with { rows }.
  const ids = [creator.id, ...(result as { rows: { user_id: number }[] }).rows.map((r) => Number(r.user_id))];
  const people = await db().select({ phoneNumber: users.phoneNumber }).from(users).where(inArray(users.id, ids));
  return { loop, people };
}

describe('sending in batches', () => {
  it('sends a burst larger than a batch exactly once, each text recorded with its own Twilio id', async () => {
    const { loop, people } = await bigLoop(600);
    const queued = await db().transaction((tx) =>
      enqueueLoopTexts(tx, { loopId: loop.id, kind: 'reminder', body: 'Time to share your news!', keyPrefix: `burst:${loop.id}` }),
    );
    expect(queued).toBe(600);
    const before = env.fake.sent.length;
    await sweepUntilIdle(env.t.app.ctx);

    const phones = new Set(people.map((p) => p.phoneNumber));
    const sent = env.fake.sent.slice(before).filter((s) => phones.has(String(s.params.To)));
    expect(sent).toHaveLength(600);
    expect(new Set(sent.map((s) => s.params.To)).size).toBe(600);
    const rows = await db().select().from(messages).where(eq(messages.loopId, loop.id));
    expect(rows).toHaveLength(600);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.channel === 'sms' && r.fromAddress === '+15005550006')).toBe(
      true,
    );
    expect(rows.every((r) => r.sentAt !== null && r.nextAttemptAt === null && r.error === null)).toBe(true);
    expect(new Set(rows.map((r) => r.providerMessageId)).size).toBe(600);
  });

  it('sends texts to one phone in the order they were queued, while other phones go side by side', async () => {
    const ada = await createPerson(db());
    const others = await Promise.all(Array.from({ length: 80 }, () => createPerson(db())));
    for (let i = 1; i <= 5; i++) {
      await queue(ada.id, `ada ${i}`);
      for (const other of others.slice((i - 1) * 16, i * 16)) await queue(other.id, `other ${i}`);
    }
    await sweepUntilIdle(env.t.app.ctx);
    expect(env.fake.sent.filter((s) => s.params.To === ada.phoneNumber).map((s) => s.params.Body)).toEqual([
      'ada 1',
      'ada 2',
      'ada 3',
      'ada 4',
      'ada 5',
    ]);
    expect((await textsTo(db(), ada.phoneNumber)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });

  it('does not overwrite a text that another process took over after the lease ran out', async () => {
    const person = await createPerson(db());
    const id = await queue(person.id, 'taken over');
    // This process claims the text, then stalls past its lease...
    const [stale] = await claimTexts(db(), { now: clock(), leaseUntil: new Date(clock().getTime() - 1), limit: 1000 });
    expect(stale?.id).toBe(id);
    // ...another process claims it again and sends it.
    await sweepUntilIdle(env.t.app.ctx);
    const [afterOther] = await textsTo(db(), person.phoneNumber);
    expect(afterOther).toMatchObject({ status: 'sent', attempts: 2 });
    // The stalled process finally sends its copy (at least once): the other's record stands.
    const claims = [stale ? [stale] : [], []];
    await sendDueTexts(env.t.app.ctx, { claim: async () => claims.shift() ?? [], batch: 10, pacer: createPacer(env.t.app.ctx.db, 0) });
    const [row] = await textsTo(db(), person.phoneNumber);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, providerMessageId: afterOther?.providerMessageId });
  });

  it('gives a text back untried when too little of its lease is left to wait for Twilio', async () => {
    const person = await createPerson(db());
    const id = await queue(person.id, 'almost expired');
    const rows = await claimTexts(db(), { now: clock(), leaseUntil: new Date(clock().getTime() + 10_000), limit: 1000 });
    expect(rows.map((r) => r.id)).toEqual([id]);
    const claims = [rows, []];
    await sendDueTexts(env.t.app.ctx, { claim: async () => claims.shift() ?? [], batch: 1000, pacer: createPacer(env.t.app.ctx.db, 0) });
    expect(env.fake.attempts.filter((s) => s.params.To === person.phoneNumber)).toEqual([]);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'queued', attempts: 0, nextAttemptAt: null });
    await sweepUntilIdle(env.t.app.ctx);
    expect((await textsTo(db(), person.phoneNumber))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('when stopping, sends under way finish and texts not started go back to the queue', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createPerson(db())));
    const ids = [];
    for (const person of people) ids.push(await queue(person.id, 'paced'));
    const paced = { ...env.t.app.ctx, config: { ...env.t.app.ctx.config, SEND_RATE_PER_SECOND: 10 } };
    const stopping = new AbortController();
    const sweep = textsChannel.sweep(paced, createPacer(paced.db, 10), { signal: stopping.signal });
    await new Promise((resolve) => setTimeout(resolve, 250));
    stopping.abort();
    await sweep;
    const rows = await db()
      .select()
      .from(messages)
      .where(
        inArray(
          messages.id,
          ids.filter((id): id is number => id !== null),
        ),
      );
    const sent = rows.filter((r) => r.status === 'sent');
    const back = rows.filter((r) => r.status === 'queued');
    expect(sent.length).toBeGreaterThan(0);
    expect(back.length).toBeGreaterThan(0);
    expect(sent.length + back.length).toBe(12);
    expect(back.every((r) => r.attempts === 0 && r.nextAttemptAt === null)).toBe(true);
    const phonesSent = new Set(env.fake.sent.map((s) => s.params.To));
    expect(sent.every((r) => phonesSent.has(r.toAddress))).toBe(true);
    expect(back.some((r) => phonesSent.has(r.toAddress))).toBe(false);
    await sweepUntilIdle(env.t.app.ctx);
  });
});
