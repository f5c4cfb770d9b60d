import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { createPerson, testClock, useFakeTwilioApp } from '../helpers/messaging';

/**
 * Decision 0064: a text whose last attempt's outcome was never written (the process died, or the
 * database was unreachable for longer than the lease) may have reached Twilio. The claim that
 * takes it back marks it in doubt, and the texts channel reads Twilio's Messages list for that
 * number before sending it again (the fake Twilio answers that list as Twilio documents it).
 */
const clock = testClock();
const env = useFakeTwilioApp({ clock });
const { db } = env;
const BODY = 'Time to share your news!';

let counter = 0;
/** A queued text, then left `sending` by a claim whose lease ran out (as after a crash mid-send). */
async function textLeftInFlight(claimedAt: Date) {
  const person = await createPerson(db());
  const id = await db().transaction((tx) =>
    enqueueText(tx, { kind: 'reminder', userId: person.id, body: BODY, idempotencyKey: `in-doubt:${++counter}` }),
  );
  await db()
    .update(messages)
    .set({ status: 'sending', attempts: 1, nextAttemptAt: new Date(clock().getTime() - 1000), updatedAt: claimedAt })
    .where(eq(messages.id, Number(id)));
  return { person, id: Number(id) };
}
const rowOf = async (id: number) => (await db().select().from(messages).where(eq(messages.id, id)))[0];
const createsTo = (phone: string) => env.fake.attempts.filter((a) => a.params.To === phone);
const listsFor = (phone: string) => env.fake.lists.filter((q) => q.get('To') === phone);

describe('a text in doubt (its lease ran out with no outcome written)', () => {
  it('is recorded sent with the id Twilio has, and not sent again, when Twilio took it', async () => {
    const claimedAt = new Date(Date.now() - 30_000);
    const { person, id } = await textLeftInFlight(claimedAt);
    const sid = env.fake.addMessage({ to: person.phoneNumber, from: '+15005550006', body: BODY, createdAt: new Date(Date.now() - 20_000) });

    await sweepUntilIdle(env.t.app.ctx);

    expect(await rowOf(id)).toMatchObject({ status: 'sent', providerMessageId: sid, attempts: 2, inDoubtSince: null, error: null });
    expect(createsTo(person.phoneNumber)).toHaveLength(0);
    expect(listsFor(person.phoneNumber)).toHaveLength(1);
  });

  it('is sent once when Twilio has no such text since the attempt (an older one with the same words does not count)', async () => {
    const claimedAt = new Date(Date.now() - 30_000);
    const { person, id } = await textLeftInFlight(claimedAt);
    env.fake.addMessage({ to: person.phoneNumber, from: '+15005550006', body: BODY, createdAt: new Date(Date.now() - 3 * 3600_000) });

    await sweepUntilIdle(env.t.app.ctx);

    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, inDoubtSince: null });
    expect(createsTo(person.phoneNumber)).toHaveLength(1);
    expect(listsFor(person.phoneNumber)).toHaveLength(1);
  });

  it('is tried again later, still in doubt, when Twilio cannot be asked', async () => {
    const claimedAt = new Date(Date.now() - 30_000);
    const { person, id } = await textLeftInFlight(claimedAt);
    // The list answers 500: Twilio is asked again at the next attempt, and nothing is sent meanwhile.
    env.fake.failLists(1);
    await sweepUntilIdle(env.t.app.ctx);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row?.inDoubtSince?.getTime()).toBe(claimedAt.getTime());
    expect(row?.error).toMatch(/could not ask Twilio whether an earlier attempt went out/);
    expect(createsTo(person.phoneNumber)).toHaveLength(0);

    clock.advance(60_000);
    await sweepUntilIdle(env.t.app.ctx);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 3, inDoubtSince: null });
    expect(createsTo(person.phoneNumber)).toHaveLength(1);
    expect(listsFor(person.phoneNumber)).toHaveLength(2);
  });

  it('a text claimed from the queue is sent without asking', async () => {
    const person = await createPerson(db());
    await db().transaction((tx) =>
      enqueueText(tx, { kind: 'reminder', userId: person.id, body: BODY, idempotencyKey: `in-doubt:${++counter}` }),
    );
    await sweepUntilIdle(env.t.app.ctx);
    expect(createsTo(person.phoneNumber)).toHaveLength(1);
    expect(listsFor(person.phoneNumber)).toHaveLength(0);
  });
});
