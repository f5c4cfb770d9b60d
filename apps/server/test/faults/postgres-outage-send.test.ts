import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { enqueueEmail } from '../../src/mail/outbox';
import { enqueueText } from '../../src/messaging/outbox';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';
import { startServer, stopAllServers } from '../helpers/server-process';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { sleep, until } from './helpers/wait';

/**
 * docs/reliability.md, "PostgreSQL unreachable mid-send" (decision 0064): the server process
 * reaches PostgreSQL through a TCP proxy, and the test cuts it for 4 s while 100 texts and 100
 * e-mails are being sent, with Twilio's and the SMTP server's answers held back so that sends
 * are in flight at the cut. The provider takes each message; the write that records it fails.
 * Each outcome is kept and written again until the database answers, so every message is
 * recorded `sent` soon after, and goes out once (before, they waited out their 2-minute lease
 * and were sent again: 32 of 100 texts and 15 of 100 e-mails twice).
 */
const OUTAGE_MS = 4000;
const COUNT = 100;

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL unreachable for 4 s while texts and e-mails are sent', () => {
  let testDb: TestDatabase;
  let fake: FakeTwilio;
  let sink: SmtpSink;
  let proxy: TcpProxy;
  let dataDir: string;

  beforeAll(async () => {
    [testDb, fake, sink] = await Promise.all([
      createTestDatabase(),
      startFakeTwilio({ responseDelayMs: 1500 }),
      startSmtpSink({ answerDelayMs: 1000 }),
    ]);
    const direct = new URL(testDb.url ?? '');
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    dataDir = mkdtempSync(path.join(tmpdir(), 'loop-fault-'));
  });
  afterAll(async () => {
    await stopAllServers();
    await proxy?.close();
    await fake?.close();
    await sink?.close();
    await testDb?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends each once and records each sent once the database answers', { timeout: 180_000 }, async () => {
    const { db } = testDb.database;
    const ids: number[] = [];
    const phones: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const person = await createPerson(db);
      phones.push(person.phoneNumber);
      const text = await enqueueText(db, { kind: 'group_message', userId: person.id, body: `News ${i}`, idempotencyKey: `outage:t:${i}` });
      const email = await enqueueEmail(db, {
        kind: 'confirm_address',
        toAddress: `outage${i}@example.org`,
        subject: 'Confirm',
        text: `Confirm ${i}`,
        idempotencyKey: `outage:e:${i}`,
      });
      if (text !== null) ids.push(text);
      if (email !== null) ids.push(email);
    }
    expect(ids).toHaveLength(2 * COUNT);

    const proxied = new URL(testDb.url ?? '');
    proxied.port = String(proxy.port);
    await startServer({
      ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }),
      SMTP_URL: sink.url,
      MAIL_FROM: 'Loop <loop@mail.example.com>',
      MAIL_RATE_PER_SECOND: '0',
      DATABASE_URL: proxied.toString(),
      DATA_DIR: dataDir,
    });
    // Cut while both channels have sends in flight (taken, not yet answered).
    await until(() => fake.sent.length >= 10 && sink.count() >= 5, 'texts and e-mails to be under way', 60_000);
    await proxy.cut();
    await sleep(OUTAGE_MS);
    await proxy.restore();

    const rows = () => db.select().from(messages).where(inArray(messages.id, ids));
    await until(async () => (await rows()).every((r) => r.status === 'sent'), 'every message to be recorded sent', 90_000);

    const texts = new Map<string, number>();
    for (const s of fake.sent) texts.set(String(s.params.To), (texts.get(String(s.params.To)) ?? 0) + 1);
    expect(phones.filter((p) => texts.get(p) !== 1)).toEqual([]);
    await sleep(500);
    expect(sink.count()).toBe(COUNT);
    const emails = new Map<string, number>();
    for (const r of sink.received) for (const to of r.envelopeTo) emails.set(to, (emails.get(to) ?? 0) + 1);
    expect([...emails.values()].filter((n) => n !== 1)).toEqual([]);
    expect(emails.size).toBe(COUNT);
  });
});
