import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { startMessageWorker } from '../../src/jobs/message-worker';
import { enqueueEmail } from '../../src/mail/outbox';
import { MAIL_SEND_TIMEOUT_MS } from '../../src/mail/transport';
import { SEND_ABORT_AFTER_STOP_MS } from '../../src/messaging/provider';
import { createTestApp, type TestContext } from '../helpers/app';
import { until } from './helpers/wait';

/**
 * docs/reliability.md, "Stopping", the e-mail channel: an SMTP server that accepts the connection
 * and then says nothing holds a send for nodemailer's 30 s timeouts, past the 10 s a stop may take
 * (exit code 1). The e-mail channel gives such sends up SEND_ABORT_AFTER_STOP_MS into the stop, as
 * the texts channel does with a slow Twilio: their e-mails go back to the outbox, due at once, the
 * attempt not counted.
 */
describe('a stop while the SMTP server stalls', () => {
  let stalled: net.Server;
  const sockets = new Set<net.Socket>();
  let t: TestContext;
  beforeAll(async () => {
    // Takes the connection and never greets (RFC 5321 4.3.1: the client waits for the 220).
    stalled = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as AddressInfo;
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Loop <loop@mail.example.com>', MAIL_RATE_PER_SECOND: '0' });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => stalled?.close(resolve));
  });

  it('the worker gives the unanswered sends up a few seconds in and gives their e-mails back', { timeout: 60_000 }, async () => {
    expect(MAIL_SEND_TIMEOUT_MS).toBeGreaterThan(10_000);
    const db = t.testDb.database.db;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await enqueueEmail(db, {
        kind: 'confirm_address',
        toAddress: `stalled${i}@example.org`,
        subject: 'Confirm',
        text: 'Confirm your address',
        idempotencyKey: `slow-smtp-stop:${i}`,
      });
      if (id !== null) ids.push(id);
    }
    expect(ids).toHaveLength(3);
    const errors: unknown[] = [];
    const worker = startMessageWorker(t.app.ctx, { onError: (e) => errors.push(e) });
    await until(async () => {
      const rows = await db.select().from(messages).where(inArray(messages.id, ids));
      return sockets.size > 0 && rows.every((r) => r.status === 'sending');
    }, 'every e-mail to be waiting for the SMTP server');
    const started = performance.now();
    await worker.stop();
    const stopMs = performance.now() - started;

    expect(errors).toEqual([]);
    expect(stopMs).toBeGreaterThanOrEqual(SEND_ABORT_AFTER_STOP_MS - 50);
    expect(stopMs).toBeLessThan(SEND_ABORT_AFTER_STOP_MS + 3000);
    const rows = await db.select().from(messages).where(inArray(messages.id, ids));
    expect(rows.map((m) => [m.status, m.attempts, m.nextAttemptAt, m.error])).toEqual(ids.map(() => ['queued', 0, null, null]));
  });
});
