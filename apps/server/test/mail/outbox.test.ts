/**
 * The e-mail outbox against a real SMTP server on 127.0.0.1 (smtp-server), read back with
 * mailparser (decision 0047). What a bulk sender must send, per Gmail's sender guidelines
 * (https://support.google.com/a/answer/81126): a Message-ID, one-click unsubscribe
 * (`List-Unsubscribe` with an https link and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`,
 * RFC 8058 section 3.1; the header itself RFC 2369 section 3.2), and a plain-text part.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, messages, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueEmail, type EmailToQueue } from '../../src/mail/outbox';
import { createTestApp, type TestContext } from '../helpers/app';
import { createPerson, testClock } from '../helpers/messaging';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';

const clock = testClock();
let sink: SmtpSink;
let t: TestContext;
const db = () => t.testDb.database.db;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp(
    {
      SMTP_URL: sink.url,
      MAIL_FROM: 'Smith Loop <loop@mail.example.com>',
      PUBLIC_URL: 'https://loop.example.com',
      SEND_RETRY_BASE_SECONDS: '30',
    },
    { clock },
  );
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let counter = 0;
/** A person whose address is `email`, confirmed unless said otherwise. */
async function personWith(email: string, confirmed = true) {
  const person = await createPerson(db());
  await db()
    .update(users)
    .set({ email, emailConfirmedAddress: confirmed ? email : null, emailConfirmedAt: confirmed ? clock() : null })
    .where(eq(users.id, person.id));
  return person;
}
const queue = (email: Partial<EmailToQueue> & { toAddress: string }) =>
  db().transaction((tx) =>
    enqueueEmail(tx, {
      kind: 'newsletter',
      subject: 'Smith Family, March',
      text: 'The news of March.',
      html: '<p>The news of <b>March</b>.</p>',
      idempotencyKey: `test:${++counter}`,
      ...email,
    }),
  );
const rowOf = async (id: number | null) =>
  (
    await db()
      .select()
      .from(messages)
      .where(eq(messages.id, id ?? -1))
  )[0];
const to = (address: string) => sink.received.filter((m) => m.envelopeTo.includes(address));

describe('sending', () => {
  it('sends a confirmed address its e-mail with the headers bulk senders need', async () => {
    const person = await personWith('ada@example.org');
    const id = await queue({ toAddress: 'Ada@Example.org', userId: person.id, replyTo: 'reply+abc@mail.example.com' });
    expect(id).not.toBeNull();
    await sweepUntilIdle(t.app.ctx);

    const [mail] = to('ada@example.org');
    expect(mail).toBeDefined();
    const parsed = mail!.parsed;
    expect(parsed.subject).toBe('Smith Family, March');
    expect(parsed.from?.value[0]).toMatchObject({ address: 'loop@mail.example.com', name: 'Smith Loop' });
    expect(parsed.text?.trim()).toBe('The news of March.');
    expect(parsed.html).toContain('<p>The news of <b>March</b>.</p>');
    expect(parsed.replyTo?.value[0]?.address).toBe('reply+abc@mail.example.com');
    expect(parsed.messageId).toMatch(/^<loop\.\d+\.[A-Za-z0-9]{16}@mail\.example\.com>$/);
    expect(parsed.date).toBeInstanceOf(Date);
    // RFC 2369 3.2 (angle brackets) and RFC 8058 3.1 (an https URI and the Post header); no
    // mailto, as no reply listener runs here to act on one (reply-automatic.test.ts has it).
    const unfolded = mail!.source.replace(/\r?\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(/^List-Unsubscribe: <https:\/\/loop\.example\.com\/email\/unsubscribe\/[A-Za-z0-9_-]{43}>\r?$/m);
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    const row = await rowOf(id);
    expect(row).toMatchObject({
      status: 'sent',
      channel: 'email',
      toAddress: 'ada@example.org',
      fromAddress: 'loop@mail.example.com',
      attempts: 1,
    });
    expect(row?.providerMessageId).toBe(parsed.messageId);
    const headers = JSON.parse(row!.raw!.headers!) as Record<string, string>;
    expect(headers).toMatchObject({ 'Message-ID': parsed.messageId, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('queues nothing but the confirmation to an address not confirmed (double opt-in)', async () => {
    const person = await personWith('bob@example.org', false);
    expect(await queue({ toAddress: 'bob@example.org', userId: person.id })).toBeNull();
    const confirm = await queue({ toAddress: 'bob@example.org', userId: person.id, kind: 'confirm_address', subject: 'Confirm', html: '' });
    expect(confirm).not.toBeNull();
    // The same key again is a no-op.
    expect(await queue({ toAddress: 'bob@example.org', kind: 'confirm_address', idempotencyKey: `test:${counter}` })).toBeNull();
    await sweepUntilIdle(t.app.ctx);
    expect(to('bob@example.org').map((m) => m.parsed.subject)).toEqual(['Confirm']);
    expect(to('bob@example.org')[0]?.parsed.html).toBe(false);
  });

  it('retries a 4xx later and sends once', async () => {
    await personWith('cat@example.org');
    sink.failNext(451);
    const id = await queue({ toAddress: 'cat@example.org' });
    await sweepUntilIdle(t.app.ctx);
    let row = await rowOf(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row?.error).toMatch(/^SMTP 451: .*\(attempt 1 of 5\)$/);
    expect(row?.nextAttemptAt?.getTime()).toBe(clock().getTime() + 30_000);
    clock.advance(30_000);
    await sweepUntilIdle(t.app.ctx);
    row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(to('cat@example.org')).toHaveLength(1);
  });

  it('stops at a 5xx and marks the address bouncing: nothing more goes to it', async () => {
    await personWith('dan@example.org');
    sink.failNext(550);
    const id = await queue({ toAddress: 'dan@example.org' });
    await sweepUntilIdle(t.app.ctx);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.error).toMatch(/^SMTP 550: /);
    const [suppressed] = await db().select().from(emailSuppressions).where(eq(emailSuppressions.address, 'dan@example.org'));
    expect(suppressed).toMatchObject({ reason: 'bounced' });
    expect(await queue({ toAddress: 'dan@example.org' })).toBeNull();
    expect(to('dan@example.org')).toHaveLength(0);
  });
});
