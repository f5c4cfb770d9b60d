/**
 * No stranger can block anyone's replies by e-mail (decision 0050). Behind the MX or relay the
 * README recommends, every message comes from one connecting address, so the listener counts by
 * what a sender proved (its From, authenticated by SPF, DKIM or DMARC) and only messages it took:
 * a refused message counts against no member. The attacks as played against the code before:
 * 610 MAIL FROM on one connection made every member's next reply get 451; 20 messages of an
 * authenticated stranger to Erin's reply address made Erin's own get 452.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmtpListener } from '../../src/mail/smtp-listener';
import { createTestApp, type TestContext } from '../helpers/app';
import { DOMAIN, giveEmail, startTestListener } from '../helpers/mail-replies';
import { createLoop, createPerson, updatesOf } from '../helpers/messaging';
import { sendSmtp, smtpSession } from '../helpers/smtp-client';

let t: TestContext;
let listener: SmtpListener;
const errors: unknown[] = [];
let loopId = 0;
const people: Record<string, { memberId: number; address: string; userId: number }> = {};

beforeAll(async () => {
  // The default of 20 replies a member an hour; 5 messages an hour from one proved sender.
  t = await createTestApp({ MAIL_REPLY_DOMAIN: DOMAIN, MAIL_INBOUND_PER_ADDRESS_PER_HOUR: '5' });
  const db = t.app.ctx.db;
  const erin = await createPerson(db, { firstName: 'Erin' });
  const finn = await createPerson(db, { firstName: 'Finn' });
  loopId = (await createLoop(db, { name: 'The Walshes', memberIds: [erin.id, finn.id] })).id;
  // Outlook passes DMARC by SPF from 127.0.0.1 here (helpers/mail-replies.ts), strangers' too.
  people.erin = { ...(await giveEmail(db, erin, loopId, 'erin@outlook.com')), userId: erin.id };
  people.finn = { ...(await giveEmail(db, finn, loopId, 'finn@outlook.com')), userId: finn.id };
  listener = await startTestListener(t.app.ctx, errors);
});

afterAll(async () => {
  await listener?.close();
  await t?.close();
  expect(errors).toEqual([]);
});

function reply(from: string, to: string, words: string): string {
  return [`From: ${from}`, `To: ${to}`, 'Subject: Re: The Walshes', `Message-ID: <${Math.random()}@outlook.com>`, '', words, ''].join(
    '\r\n',
  );
}

const repliesOf = async (userId: number) => (await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === userId);

describe('the reply listener counts what senders proved', () => {
  it('610 MAIL FROM on one connection (as a relay carries them) leave the next member reply through it taken', async () => {
    const session = await smtpSession(listener.port);
    const answers = new Set<number>();
    try {
      for (let i = 0; i < 610; i++) {
        answers.add((await session.command(`MAIL FROM:<bulk${i}@outlook.com>`)).code);
        await session.command('RSET');
      }
    } finally {
      session.close();
    }
    expect([...answers]).toEqual([250]);
    const sent = await sendSmtp(listener.port, {
      from: 'erin@outlook.com',
      to: [people.erin!.address],
      raw: reply('Erin <erin@outlook.com>', people.erin!.address, 'The garden is in bloom.'),
    });
    expect(sent.data?.code).toBe(250);
    expect((await repliesOf(people.erin!.userId)).map((u) => u.content)).toEqual(['The garden is in bloom.']);
  }, 120_000);

  it("25 messages of an authenticated stranger to Erin's reply address are refused and leave Erin's own reply taken", async () => {
    const codes = new Set<number | undefined>();
    for (let i = 0; i < 25; i++) {
      const sent = await sendSmtp(listener.port, {
        from: 'mallory@outlook.com',
        to: [people.erin!.address],
        raw: reply('Mallory <mallory@outlook.com>', people.erin!.address, `Spam ${i}`),
      });
      codes.add(sent.rcpt[0]?.code);
      codes.add(sent.data?.code);
    }
    expect([...codes]).toEqual([250, 550]);
    const sent = await sendSmtp(listener.port, {
      from: 'erin@outlook.com',
      to: [people.erin!.address],
      raw: reply('Erin <erin@outlook.com>', people.erin!.address, 'Tomatoes are red.'),
    });
    expect(sent.rcpt[0]?.code).toBe(250);
    expect(sent.data?.code).toBe(250);
    expect(await repliesOf(people.erin!.userId)).toHaveLength(2);
  }, 120_000);

  it('a proved sender past MAIL_INBOUND_PER_ADDRESS_PER_HOUR is asked to try later (451), and no one else is', async () => {
    const answers: (string | undefined)[] = [];
    for (let i = 0; i < 6; i++) {
      const raw = reply('Finn <finn@outlook.com>', people.finn!.address, `Note ${i}`);
      const sent = await sendSmtp(listener.port, { from: 'finn@outlook.com', to: [people.finn!.address], raw });
      answers.push(sent.data && `${sent.data.code} ${sent.data.text}`);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('250 OK: message queued'));
    expect(answers[5]).toBe('451 4.7.1 Too many messages from your address; please try again later');
    const erins = await sendSmtp(listener.port, {
      from: 'erin@outlook.com',
      to: [people.erin!.address],
      raw: reply('Erin <erin@outlook.com>', people.erin!.address, 'Still here.'),
    });
    expect(erins.data?.code).toBe(250);
  }, 120_000);
});
