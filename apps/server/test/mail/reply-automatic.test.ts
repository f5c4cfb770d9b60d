/**
 * Machines talking to machines (decision 0050). RFC 3834 (Recommendations for Automatic Responses
 * to Electronic Mail): an automatic response says so with `Auto-Submitted: auto-replied` (section
 * 5), and nothing automatic is answered (section 2), or two responders answer each other for
 * ever. RFC 2369 section 3.2 and CAN-SPAM (15 U.S.C. 7704(a)(3)): the mailto of List-Unsubscribe
 * must work, so it is the reply listener's own `unsubscribe+{token}@MAIL_REPLY_DOMAIN`, and there
 * is none where no listener runs.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, messages } from '../../src/db/schema';
import { keepUnsubscribeTokens } from '../../src/mail/links';
import { emailHeaders } from '../../src/outbox/email/send-emails';
import type { SmtpListener } from '../../src/mail/smtp-listener';
import { createTestApp, type TestContext } from '../helpers/app';
import { DOMAIN, giveEmail, startTestListener } from '../helpers/mail-replies';
import { createLoop, createPerson, updatesOf } from '../helpers/messaging';
import { sendSmtp } from '../helpers/smtp-client';

let t: TestContext;
let listener: SmtpListener;
const errors: unknown[] = [];
let loopId = 0;
let gwen = { memberId: 0, address: '', userId: 0 };

beforeAll(async () => {
  // MAIL_INBOUND_PORT set: the listener runs (here started by the test on a free port).
  t = await createTestApp({ MAIL_REPLY_DOMAIN: DOMAIN, MAIL_INBOUND_PORT: '2525' });
  const db = t.app.ctx.db;
  const person = await createPerson(db, { firstName: 'Gwen' });
  loopId = (await createLoop(db, { name: 'The Lloyds', memberIds: [person.id] })).id;
  gwen = { ...(await giveEmail(db, person, loopId, 'gwen@outlook.com')), userId: person.id };
  listener = await startTestListener(t.app.ctx, errors);
});

afterAll(async () => {
  await listener?.close();
  await t?.close();
  expect(errors).toEqual([]);
});

const acks = () =>
  t.app.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.toAddress, 'gwen@outlook.com'), eq(messages.kind, 'reply_ack')));

function reply(headers: string[], words = 'I am away until Monday.'): string {
  return [
    'From: Gwen <gwen@outlook.com>',
    `To: ${gwen.address}`,
    `Message-ID: <${Math.random()}@outlook.com>`,
    ...headers,
    '',
    words,
    '',
  ].join('\r\n');
}

describe('an automatic answer to a newsletter', () => {
  it.each([
    ['Auto-Submitted: auto-replied (Gmail, iCloud)', ['Subject: Re: The Lloyds', 'Auto-Submitted: auto-replied']],
    ['Auto-Submitted: auto-generated (Exchange)', ['Subject: Re: The Lloyds', 'Auto-Submitted: auto-generated']],
    ['Precedence: bulk', ['Subject: Re: The Lloyds', 'Precedence: bulk']],
    ['Precedence: auto_reply', ['Subject: Re: The Lloyds', 'Precedence: auto_reply']],
    ['Precedence: junk', ['Subject: Re: The Lloyds', 'Precedence: junk']],
    ['Precedence: list', ['Subject: Re: The Lloyds', 'Precedence: list']],
    ['X-Autoreply: yes', ['Subject: Re: The Lloyds', 'X-Autoreply: yes']],
    ['X-Autorespond', ['Subject: Re: The Lloyds', 'X-Autorespond: Out of office']],
    ['an out-of-office subject', ['Subject: Automatic reply: The Lloyds']],
  ])('with %s, from the member, is taken and never published nor answered', async (_name, headers) => {
    const sent = await sendSmtp(listener.port, { from: 'gwen@outlook.com', to: [gwen.address], raw: reply(headers) });
    expect(sent.data?.code).toBe(250);
    expect(await updatesOf(t.app.ctx.db, loopId)).toEqual([]);
    expect(await acks()).toEqual([]);
  });

  it('a bounce (MAIL FROM:<>) likewise; a reply with Auto-Submitted: no is the member writing, shared and answered', async () => {
    const bounce = await sendSmtp(listener.port, { from: '', to: [gwen.address], raw: reply(['Subject: Undeliverable']) });
    expect(bounce.data?.code).toBe(250);
    expect(await updatesOf(t.app.ctx.db, loopId)).toEqual([]);
    const raw = reply(['Subject: Re: The Lloyds', 'Auto-Submitted: no'], 'The kittens are walking!');
    const sent = await sendSmtp(listener.port, { from: 'gwen@outlook.com', to: [gwen.address], raw });
    expect(sent.data?.code).toBe(250);
    expect((await updatesOf(t.app.ctx.db, loopId)).map((u) => u.content)).toEqual(['The kittens are walking!']);
    expect(await acks()).toHaveLength(1);
  });
});

describe('what Loop sends', () => {
  it('an acknowledgement carries Auto-Submitted: auto-replied; a newsletter does not', () => {
    const ack = emailHeaders(t.app.ctx.config, { id: 1, toAddress: 'gwen@outlook.com', kind: 'reply_ack' }, {});
    expect(ack['Auto-Submitted']).toBe('auto-replied');
    const newsletter = emailHeaders(t.app.ctx.config, { id: 2, toAddress: 'gwen@outlook.com', kind: 'newsletter' }, {});
    expect(newsletter['Auto-Submitted']).toBeUndefined();
  });

  it("List-Unsubscribe's mailto is the listener's; an e-mail to it, from anyone, unsubscribes the address", async () => {
    const db = t.app.ctx.db;
    // What sending does before an e-mail goes: its unsubscribe tokens are kept.
    await keepUnsubscribeTokens(db, t.app.ctx.config.SESSION_SECRET, ['gwen@outlook.com']);
    const header = emailHeaders(t.app.ctx.config, { id: 3, toAddress: 'gwen@outlook.com', kind: 'newsletter' }, {})['List-Unsubscribe'];
    const mailto = /<mailto:([^?>]+)\?subject=unsubscribe>$/.exec(header ?? '')?.[1];
    expect(mailto).toMatch(new RegExp(`^unsubscribe\\+[0-9a-f]{32}@${DOMAIN.replaceAll('.', '\\.')}$`));
    // A mail program sends it, as RFC 2369 section 3.2 says; it may fold the address's case.
    const sent = await sendSmtp(listener.port, {
      from: 'someone@mail.example.net',
      to: [mailto!.toUpperCase().replace(DOMAIN.toUpperCase(), DOMAIN)],
      raw: 'From: someone@mail.example.net\r\nSubject: unsubscribe\r\n\r\n',
    });
    expect(sent.rcpt[0]?.code).toBe(250);
    expect(sent.data?.code).toBe(250);
    const [suppressed] = await db.select().from(emailSuppressions).where(eq(emailSuppressions.address, 'gwen@outlook.com'));
    expect(suppressed?.reason).toBe('unsubscribed');
    // Another token is no recipient, as any unknown address.
    const unknown = await sendSmtp(listener.port, { from: 'x@example.net', to: [`unsubscribe+${'0'.repeat(32)}@${DOMAIN}`], raw: 'Hi' });
    expect(unknown.rcpt[0]).toEqual({ code: 550, text: '5.1.1 No such recipient here' });
  });

  it('without a listener (MAIL_INBOUND_PORT unset), List-Unsubscribe has the https link alone', async () => {
    const { MAIL_INBOUND_PORT: _, ...withoutListener } = t.app.ctx.config;
    const header = emailHeaders(withoutListener, { id: 4, toAddress: 'gwen@outlook.com', kind: 'newsletter' }, {})['List-Unsubscribe'];
    expect(header).toMatch(/^<https?:\/\/[^>]+\/email\/unsubscribe\/[A-Za-z0-9_-]{43}>$/);
  });
});
