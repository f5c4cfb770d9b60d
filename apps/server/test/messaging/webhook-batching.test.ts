import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import type { Db } from '../../src/db/client';
import { messages } from '../../src/db/schema';
import { createInboundBatcher } from '../../src/messaging/inbound-batcher';
import { inboundRow, type InboundParams } from '../../src/messaging/ingest-inbound';
import { testConfig, uniquePhone } from '../helpers/app';
import { twilioEnv } from '../helpers/fake-twilio';
import { useFakeTwilioApp } from '../helpers/messaging';
import { postWebhook, smsParams } from '../helpers/twilio-fixtures';

// The webhook stores texts that arrive together in one statement (group commit). These tests
// hold it to the same promises as one INSERT per request: one row per MessageSid, a 200 only
// for a stored row, and a 5xx (so Twilio tries again) for a text that could not be stored.

const env = useFakeTwilioApp();
const { db } = env;

const rowsFor = (sids: string[]) => db().select().from(messages).where(inArray(messages.providerMessageId, sids));
const text = (body: string) => smsParams({ accountSid: env.fake.accountSid, from: uniquePhone(), body });

/** A db whose statements are counted, and can be made to fail or wait. */
function instrumented(real: Db) {
  const state = { statements: 0, fail: null as Error | null, gate: null as Promise<void> | null };
  const db = new Proxy(real, {
    get(target, key, receiver) {
      if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
      return async (query: Parameters<Db['execute']>[0]) => {
        state.statements += 1;
        if (state.gate) await state.gate;
        if (state.fail) throw state.fail;
        return target.execute(query);
      };
    },
  });
  return { db, state };
}

describe('webhook group commit', () => {
  it('50 distinct texts and 5 copies each of 10 more at once: every request 200, one row per MessageSid', async () => {
    const distinct = Array.from({ length: 50 }, (_, i) => text(`distinct ${i}`));
    const repeated = Array.from({ length: 10 }, (_, i) => text(`repeated ${i}`));
    const requests = [...distinct, ...repeated.flatMap((p) => [p, p, p, p, p])].sort(() => Math.random() - 0.5);
    const sids = [...distinct, ...repeated].map((p) => p.MessageSid ?? '');

    // Each answer is checked for its row the moment it arrives.
    const seenStored = await Promise.all(
      requests.map(async (params) => {
        const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
        const rows = await rowsFor([params.MessageSid ?? '']);
        return { status: res.statusCode, body: res.body, rows: rows.length };
      }),
    );
    expect(seenStored.every((r) => r.status === 200 && r.rows === 1)).toBe(true);
    expect(seenStored[0]?.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');

    const rows = await rowsFor(sids);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.providerMessageId)).size).toBe(60);
    const bySid = new Map(rows.map((r) => [r.providerMessageId, r]));
    for (const params of [...distinct, ...repeated]) {
      expect(bySid.get(params.MessageSid ?? '')).toMatchObject({
        direction: 'inbound',
        status: 'received',
        body: params.Body,
        raw: params,
      });
    }
  });

  it('shares statements among texts that arrive together, and reports each copy of a sid once as stored', async () => {
    const { db: counted, state } = instrumented(db());
    const batcher = createInboundBatcher(counted, { maxInFlight: 2 });
    const now = new Date();
    const params = Array.from({ length: 40 }, (_, i) => text(`together ${i}`));
    const copy = params[0] as InboundParams;
    const results = await Promise.all([...params, copy, copy].map((p) => batcher.ingest(p, now)));
    expect(state.statements).toBeLessThan(5);
    expect(results.filter((r) => r.stored)).toHaveLength(40);
    const forCopy = results.filter((_, i) => i === 0 || i >= 40);
    expect(forCopy.filter((r) => r.stored)).toHaveLength(1);
    expect(forCopy.every((r) => r.id === null || r.id === forCopy[0]?.id)).toBe(true);
    expect(await rowsFor(params.map((p) => p.MessageSid ?? ''))).toHaveLength(40);
    await batcher.drain();
  });

  it('answers no request before its statement has committed', async () => {
    const { db: gated, state } = instrumented(db());
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const batcher = createInboundBatcher(gated, { maxInFlight: 1 });
    const params = text('wait for it');
    let answered = false;
    const pending = batcher.ingest(params, new Date()).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    expect(await rowsFor([params.MessageSid ?? ''])).toHaveLength(0);
    open();
    expect((await pending).stored).toBe(true);
    expect(await rowsFor([params.MessageSid ?? ''])).toHaveLength(1);
  });

  it('a statement that hangs: its requests get a 503 in time, the next statement goes ahead, the late row counts once', async () => {
    const { db: gated, state } = instrumented(db());
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const batcher = createInboundBatcher(gated, { timeoutMs: 100 });
    const stuck = text('stuck');
    const error = (await batcher.ingest(stuck, new Date()).catch((e: unknown) => e)) as { status?: number };
    expect(error.status).toBe(503);
    state.gate = null;
    expect((await batcher.ingest(text('next'), new Date())).stored).toBe(true);
    // The hung statement commits after all; Twilio's retry of the text then stores nothing more.
    open();
    await vi.waitFor(async () => expect(await rowsFor([stuck.MessageSid ?? ''])).toHaveLength(1));
    expect((await batcher.ingest(stuck, new Date())).stored).toBe(false);
    expect(await rowsFor([stuck.MessageSid ?? ''])).toHaveLength(1);
  });

  it('a text the database refuses fails alone; the others in its batch are stored', async () => {
    const batcher = createInboundBatcher(db(), { maxInFlight: 1 });
    const good = Array.from({ length: 20 }, (_, i) => text(`fine ${i}`));
    // A lone surrogate cannot be stored as jsonb (SQLSTATE 22P02): a data error of this row only.
    const bad = text('broken \ud800 text');
    const settled = await Promise.allSettled([...good.slice(0, 10), bad, ...good.slice(10)].map((p) => batcher.ingest(p, new Date())));
    expect(settled.map((s) => s.status)).toEqual([...Array(10).fill('fulfilled'), 'rejected', ...Array(10).fill('fulfilled')]);
    expect(await rowsFor(good.map((p) => p.MessageSid ?? ''))).toHaveLength(20);
    expect(await rowsFor([bad.MessageSid ?? ''])).toHaveLength(0);
  });

  it('when the database cannot store a batch, every request of it is a 5xx and nothing is acknowledged; the retries are stored once', async () => {
    const { db: flaky, state } = instrumented(db());
    const database = { ...env.t.testDb.database, db: flaky };
    const app = await buildApp(testConfig(env.t.dataDir, twilioEnv(env.fake)), { database });
    try {
      state.fail = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      const params = Array.from({ length: 12 }, (_, i) => text(`during the outage ${i}`));
      const post = (p: InboundParams) => postWebhook(app, '/api/webhooks/twilio/messages', p, { authToken: env.fake.authToken });
      const during = await Promise.all(params.map(post));
      expect(during.every((r) => r.statusCode >= 500)).toBe(true);
      expect(during.some((r) => r.body.includes('Response'))).toBe(false);
      expect(await rowsFor(params.map((p) => p.MessageSid ?? ''))).toHaveLength(0);

      // Twilio tries again (some twice at once) once the database is back.
      state.fail = null;
      const after = await Promise.all([...params, ...params.slice(0, 4)].map(post));
      expect(after.every((r) => r.statusCode === 200)).toBe(true);
      expect(await rowsFor(params.map((p) => p.MessageSid ?? ''))).toHaveLength(12);
    } finally {
      await app.close();
    }
  });

  it('still refuses a missing or wrong signature with 403 before anything is queued', async () => {
    const params = text('unsigned');
    const res = await Promise.all([
      postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken, signature: null }),
      postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: 'not-the-token' }),
    ]);
    expect(res.map((r) => r.statusCode)).toEqual([403, 403]);
    expect(await rowsFor([params.MessageSid ?? ''])).toHaveLength(0);
  });

  it('a request without MessageSid or From is a 400 and stores nothing', async () => {
    const params = text('no sid');
    delete params.MessageSid;
    delete params.SmsMessageSid;
    const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
    expect(res.statusCode).toBe(400);
    expect(() => inboundRow({ From: '+14155550100' }, new Date())).toThrow(/MessageSid/);
  });
});
