import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, updates } from '../../src/db/schema';
import { sweepUntilIdle, startMessageWorker } from '../../src/jobs/message-worker';
import { ingestInbound } from '../../src/messaging/ingest-inbound';
import { createTestApp, type TestContext } from '../helpers/app';
import { createLoop, createPerson, textsTo, updatesOf } from '../helpers/messaging';
import { sid, smsParams } from '../helpers/twilio-fixtures';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ SEND_RATE_PER_SECOND: '0' });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the message worker', () => {
  it('handles a stored text in the background, without being drained', async () => {
    const person = await createPerson(db(), { firstName: 'Kai' });
    const loop = await createLoop(db(), { name: 'Runners', memberIds: [person.id] });
    const errors: unknown[] = [];
    const worker = startMessageWorker(t.app.ctx, { pollMs: 50, onError: (e) => errors.push(e) });
    try {
      await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: '10k done' }), new Date());
      await until(async () => (await textsTo(db(), person.phoneNumber)).some((m) => m.status === 'sent'));
    } finally {
      await worker.stop();
    }
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['10k done']);
    expect(errors).toEqual([]);
  });

  it('takes over a text whose process died mid-way once its lease ran out', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Crash Test', memberIds: [person.id] });
    const { id } = await ingestInbound(db(), smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: 'survived' }), new Date());
    // As if another process claimed it and died: leased until a minute from now.
    await db()
      .update(messages)
      .set({ status: 'processing', attempts: 1, nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(messages.id, id ?? 0));
    await sweepUntilIdle(t.app.ctx);
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    await db()
      .update(messages)
      .set({ nextAttemptAt: new Date(Date.now() - 1) })
      .where(eq(messages.id, id ?? 0));
    await sweepUntilIdle(t.app.ctx);
    expect((await updatesOf(db(), loop.id)).map((u) => u.content)).toEqual(['survived']);
  });

  it('two workers on one database handle each text once', async () => {
    const person = await createPerson(db());
    const loop = await createLoop(db(), { name: 'Pair', memberIds: [person.id] });
    for (let i = 0; i < 12; i++) {
      await ingestInbound(
        db(),
        { ...smsParams({ accountSid: 'AC1', from: person.phoneNumber, body: `note ${i}` }), MessageSid: sid('SM') },
        new Date(),
      );
    }
    const other = await t.rebuild();
    await Promise.all([sweepUntilIdle(t.app.ctx), sweepUntilIdle(other.ctx)]);
    const rows = await db().select().from(updates).where(eq(updates.loopId, loop.id));
    expect(rows).toHaveLength(12);
    const replies = await textsTo(db(), person.phoneNumber);
    expect(replies).toHaveLength(12);
    expect(replies.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });
});
