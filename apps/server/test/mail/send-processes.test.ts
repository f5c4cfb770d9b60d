import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, users } from '../../src/db/schema';
import { enqueueEmail } from '../../src/mail/outbox';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { createPerson } from '../helpers/messaging';
import { startServer, stopAllServers } from '../helpers/server-process';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';

/**
 * Decision 0047: e-mail rows are claimed like texts (FOR UPDATE SKIP LOCKED, a lease), so two real
 * server processes on one PostgreSQL database send every e-mail exactly once, to one real SMTP
 * server (smtp-server on 127.0.0.1). Needs PostgreSQL (TEST_DATABASE_URL): PGlite is one process.
 */
const EMAILS = 300;

describe.skipIf(!TEST_DATABASE_URL)('e-mail sent by two server processes', () => {
  let testDb: TestDatabase;
  let sink: SmtpSink;
  const dataDirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'loop-mail-')));

  beforeAll(async () => {
    [testDb, sink] = await Promise.all([createTestDatabase(), startSmtpSink()]);
  });

  afterAll(async () => {
    await stopAllServers();
    await sink?.close();
    await testDb?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sends each queued e-mail exactly once, whichever process claims it', { timeout: 120_000 }, async () => {
    const env = (index: number) => ({
      DATABASE_URL: testDb.url ?? '',
      DATA_DIR: dataDirs[index] ?? '',
      SESSION_SECRET: 'mail-processes-secret-mail-processes-0123',
      SMTP_URL: sink.url,
      MAIL_FROM: 'Loop <loop@mail.example.com>',
      MAIL_RATE_PER_SECOND: '0',
    });
    await Promise.all([startServer(env(0)), startServer(env(1))]);
    const db = testDb.database.db;
    const addresses: string[] = [];
    for (let i = 0; i < EMAILS; i++) {
      const person = await createPerson(db);
      const address = `person${i}@example.org`;
      await db.update(users).set({ email: address, emailConfirmedAddress: address }).where(eq(users.id, person.id));
      addresses.push(address);
    }
    // Queued while both processes poll: either may claim any of them.
    await db.transaction(async (tx) => {
      for (const [i, address] of addresses.entries()) {
        const id = await enqueueEmail(tx, {
          kind: 'newsletter',
          toAddress: address,
          subject: `Issue ${i}`,
          text: 'News.',
          idempotencyKey: `p:${i}`,
        });
        expect(id).not.toBeNull();
      }
    });
    await sink.waitFor(EMAILS, 90_000);
    // A moment for a duplicate, had there been one, to arrive too.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(sink.received).toHaveLength(EMAILS);
    const perAddress = new Map<string, number>();
    for (const mail of sink.received) for (const to of mail.envelopeTo) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    expect([...perAddress.keys()].sort()).toEqual([...addresses].sort());
    expect([...perAddress.values()].every((count) => count === 1)).toBe(true);
    const rows = await db
      .select({ status: messages.status, attempts: messages.attempts })
      .from(messages)
      .where(eq(messages.channel, 'email'));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(EMAILS);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // Message-IDs are unique: one per row.
    expect(new Set(sink.received.map((m) => m.parsed.messageId)).size).toBe(EMAILS);
  });
});
