/**
 * One e-mail cannot freeze the server (decision 0050): the sender is matched to the member from
 * the header alone before anything reads the body; the body is read (mailparser, then
 * email-reply-parser on a cut text) in a worker thread within a time budget; a message that cannot
 * be read is refused for good (RFC 5321 section 4.2.1: 5yz is permanent, 4yz makes the sender try
 * again for days). The main thread's responsiveness is measured as Node measures it,
 * `monitorEventLoopDelay` (https://nodejs.org/api/perf_hooks.html#perf_hooksmonitoreventloopdelayoptions).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmtpListener } from '../../src/mail/smtp-listener';
import { createTestApp, type TestContext } from '../helpers/app';
import { asked, DOMAIN, giveEmail, startTestListener } from '../helpers/mail-replies';
import { createLoop, createPerson, updatesOf } from '../helpers/messaging';
import { onTheWire, sendSmtp } from '../helpers/smtp-client';

/**
 * The longest the main thread may go without turning while a 20 MiB reply is read: reading it
 * there took 10 s on a fast machine and 42 s on a busy one; off it, a busy machine's own hiccups.
 */
const MAX_STALL_MS = 2000;

let t: TestContext;
let listener: SmtpListener;
const errors: unknown[] = [];
let loopId = 0;
let bob = { memberId: 0, address: '', userId: 0 };

beforeAll(async () => {
  t = await createTestApp({ MAIL_REPLY_DOMAIN: DOMAIN });
  const db = t.app.ctx.db;
  const person = await createPerson(db, { firstName: 'Bob' });
  loopId = (await createLoop(db, { name: 'The Joneses', memberIds: [person.id] })).id;
  // Outlook here passes DMARC by SPF alone (helpers/mail-replies.ts): no DKIM signature to make.
  bob = { ...(await giveEmail(db, person, loopId, 'bob.jones@outlook.com')), userId: person.id };
  listener = await startTestListener(t.app.ctx, errors);
});

afterAll(async () => {
  await listener?.close();
  await t?.close();
  expect(errors).toEqual([]);
});

/** A plain-text message from `from` to `to` with this body. */
function message(from: string, to: string, body: string, headers: string[] = ['Content-Type: text/plain; charset=utf-8']): string {
  return [
    `From: ${from}`,
    `To: ${to}`,
    'Subject: Re: The Joneses',
    `Message-ID: <${Math.random()}@outlook.com>`,
    'MIME-Version: 1.0',
    ...headers,
    '',
    body,
    '',
  ].join('\r\n');
}

/**
 * Sends `raw` while measuring the event loop's longest stall and asking /api/health every 20 ms.
 * The message is made ready to send first, so that only the server's work is measured.
 */
async function sendWatched(from: string, message: string) {
  const raw = onTheWire(message);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let done = false;
  let healthy = 0;
  const health = (async () => {
    while (!done) {
      if ((await t.app.inject({ url: '/api/health' })).statusCode === 200) healthy += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  histogram.enable();
  const sent = await sendSmtp(listener.port, { from, to: [bob.address], raw, onTheWire: true }).finally(() => {
    histogram.disable();
    done = true;
  });
  await health;
  return { sent, stallMs: histogram.max / 1e6, healthy };
}

describe('a 20 MiB reply on one line', () => {
  it('from the member: the server keeps answering /api/health while it is read, and keeps 10,000 characters', async () => {
    const raw = message('Bob <bob.jones@outlook.com>', bob.address, 'a'.repeat(20 * 1024 * 1024));
    const { sent, stallMs, healthy } = await sendWatched('bob.jones@outlook.com', raw);
    expect(sent.data?.code).toBe(250);
    expect(healthy).toBeGreaterThan(0);
    expect(stallMs, `the event loop stalled ${stallMs.toFixed(0)} ms`).toBeLessThan(MAX_STALL_MS);
    const [update] = (await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === bob.userId);
    expect(update?.content).toBe('a'.repeat(10_000));
  }, 120_000);

  it('from a stranger whose domain passes SPF: refused from its header, before any check or parsing of the body', async () => {
    const before = asked.length;
    const raw = message('Mallory <mallory@outlook.com>', bob.address, 'b'.repeat(20 * 1024 * 1024));
    const { sent, stallMs } = await sendWatched('mallory@outlook.com', raw);
    expect(sent.data).toEqual({ code: 550, text: '5.7.1 Not accepted: the sender is not this member' });
    // Not even SPF, DKIM or DMARC was looked up for it.
    expect(asked.length).toBe(before);
    expect(stallMs, `the event loop stalled ${stallMs.toFixed(0)} ms`).toBeLessThan(MAX_STALL_MS);
  }, 120_000);
});

describe('malformed MIME from the member is refused for good (554 5.6.0), not "try again later"', () => {
  it('3,000 nested multiparts', async () => {
    let body = '';
    for (let i = 1; i < 3000; i++) body += `--b${i - 1}\r\nContent-Type: multipart/mixed; boundary="b${i}"\r\n\r\n`;
    body += '--b2999\r\nContent-Type: text/plain\r\n\r\nHello\r\n';
    for (let i = 2999; i >= 0; i--) body += `--b${i}--\r\n`;
    const raw = message('Bob <bob.jones@outlook.com>', bob.address, body, ['Content-Type: multipart/mixed; boundary="b0"']);
    const sent = await sendSmtp(listener.port, { from: 'bob.jones@outlook.com', to: [bob.address], raw });
    expect(sent.data?.code).toBe(554);
    expect(sent.data?.text).toMatch(/^5\.6\.0 Not accepted: it has too many parts/);
  });

  it('60,000 parts', async () => {
    const body = '--b\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(60_000) + '--b--\r\n';
    const raw = message('Bob <bob.jones@outlook.com>', bob.address, body, ['Content-Type: multipart/mixed; boundary="b"']);
    const sent = await sendSmtp(listener.port, { from: 'bob.jones@outlook.com', to: [bob.address], raw });
    expect(sent.data?.code).toBe(554);
    expect((await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === bob.userId)).toHaveLength(1);
  });

  it('a header block past 256 KB', async () => {
    const raw = message('Bob <bob.jones@outlook.com>', bob.address, 'Hi', [`X-Padding: ${'p'.repeat(300 * 1024)}`]);
    const sent = await sendSmtp(listener.port, { from: 'bob.jones@outlook.com', to: [bob.address], raw });
    expect(sent.data).toEqual({ code: 554, text: '5.6.0 Not accepted: the message header is larger than 256 KB' });
  });
});
