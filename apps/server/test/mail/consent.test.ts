/**
 * Double opt-in, the newsletter by e-mail and one-click unsubscribe (decision 0047), through a
 * real SMTP server on 127.0.0.1 read back with mailparser. One-click: RFC 8058 section 3.1 (a
 * POST of `List-Unsubscribe=One-Click` to the https URI of RFC 2369's List-Unsubscribe), as
 * Gmail's sender guidelines require of bulk senders (https://support.google.com/a/answer/81126).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_NEEDED_MESSAGE } from '@loop/shared/constants';
import { members, messages, newsletters, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { randomToken } from '../../src/lib/tokens';
import { runSchedulerTick } from '../../src/scheduling/run-scheduler-tick';
import { mailLinksOf } from '../../src/mail/links';
import { REPLY_LINE } from '../../src/publishing/newsletter-email';
import { replyAddressFor } from '../../src/services/email-replies/reply-address-for';
import { newsletterAudience } from '../../src/services/newsletters/newsletter-audience';
import { sendNewsletter } from '../../src/services/newsletters/send-newsletter';
import { updateUser } from '../../src/services/users/update-user';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { createLoop, createPerson } from '../helpers/messaging';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';

let sink: SmtpSink;
let t: TestContext;
const db = () => t.testDb.database.db;
const PUBLIC_URL = 'https://loop.example.com';

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Loop <loop@mail.example.com>', PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const to = (address: string) => sink.received.filter((m) => m.envelopeTo.includes(address));
const linkIn = (text: string, path: string) => {
  const found = new RegExp(`${PUBLIC_URL}(/email/${path}/[A-Za-z0-9_-]{43})`).exec(text)?.[1];
  if (!found) throw new Error(`no /email/${path} link in: ${text}`);
  return found;
};
const config = () => t.app.ctx.config;

/** A text-only person with a confirmed address and this delivery. */
async function reader(email: string, delivery: 'text' | 'email' | 'both', confirmed = true) {
  const person = await createPerson(db());
  await db()
    .update(users)
    .set({ email, newsletterDelivery: delivery, emailConfirmedAddress: confirmed ? email : null })
    .where(eq(users.id, person.id));
  return person;
}

async function draft(loopId: number) {
  const [row] = await db()
    .insert(newsletters)
    .values({ loopId, urlId: randomToken(), title: 'March news', content: 'Grandma **planted** tomatoes.', periodEnd: new Date() })
    .returning();
  return row!;
}

describe('double opt-in', () => {
  it('choosing e-mail sends one confirmation link; the page confirms with a button, not on opening', async () => {
    const { cookie, account } = await signUp(t.app);
    const address = String(account.email).toLowerCase();
    const put = await t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie }, payload: { newsletterDelivery: 'both' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ newsletterDelivery: 'both', emailStatus: 'unconfirmed' });
    // Choosing again, or another change, sends nothing more.
    await t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie }, payload: { newsletterDelivery: 'email' } });
    await sweepUntilIdle(t.app.ctx);
    const mails = to(address);
    expect(mails.map((m) => m.parsed.subject)).toEqual(['Confirm your email address for Loop']);
    const link = linkIn(mails[0]!.parsed.text ?? '', 'confirm');

    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<form method="post" action="${link}">`);
    expect(page.body).not.toContain(address);
    const still = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(still.json()).toMatchObject({ emailStatus: 'unconfirmed' });

    const confirmed = await t.app.inject({ method: 'POST', url: link });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Your address is confirmed');
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(me.json()).toMatchObject({ newsletterDelivery: 'email', emailStatus: 'confirmed' });
    // A used link works no more; an unknown one is the same page.
    expect((await t.app.inject({ method: 'POST', url: link })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/email/confirm/${randomToken()}` })).statusCode).toBe(404);
  });

  it('an address the owner typed gets one confirmation e-mail that says who added it, and nothing more', async () => {
    const { cookie, user } = await signUp(t.app, { firstName: 'Alice' });
    const loop = await createLoopAs(t.app, cookie, { name: 'Smith Family' });
    const add = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/members`, headers: { cookie }, payload });
    const noEmail = await add({ firstName: 'Gran', lastName: 'Smith', phoneNumber: uniquePhone(), newsletterDelivery: 'email' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.body).toContain(EMAIL_NEEDED_MESSAGE);

    const res = await add({
      firstName: 'Gran',
      lastName: 'Smith',
      phoneNumber: uniquePhone(),
      email: 'Gran@Example.org',
      newsletterDelivery: 'both',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user: { email: 'gran@example.org', newsletterDelivery: 'both', emailStatus: 'unconfirmed' } });
    await sweepUntilIdle(t.app.ctx);
    const mails = to('gran@example.org');
    expect(mails.map((m) => m.parsed.subject)).toEqual(["Alice added you to Smith Family's newsletter: confirm"]);
    expect(mails[0]!.parsed.text).toContain('/email/confirm/');
    // The HTML part names the Loop, and its link is one to tap.
    const html = String(mails[0]!.parsed.html);
    expect(html).toContain('Confirm and get Smith Family&#39;s newsletter</a>');
    expect(html).toMatch(/<a href="[^"]*\/email\/confirm\/[^"]+"/);

    const detail = await t.app.inject({ method: 'GET', url: `/api/loops/${loop.id}`, headers: { cookie } });
    const gran = detail
      .json<{ members: { user: { email: string | null; emailStatus: string; newsletterDelivery: string } }[] }>()
      .members.find((m) => m.user.email === 'gran@example.org');
    expect(gran?.user).toMatchObject({ emailStatus: 'unconfirmed', newsletterDelivery: 'both' });
    expect(user.id).toBeGreaterThan(0);
  });

  it('the join page may choose e-mail: one confirmation link, and a 400 without an address', async () => {
    const { cookie } = await signUp(t.app);
    const loop = await createLoopAs(t.app, cookie, { name: 'Cousins' });
    const { code } = (await t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie } })).json<{
      code: string;
    }>();
    const join = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/invites/${code}/join`,
        payload: { firstName: 'Jo', lastName: 'March', phoneNumber: uniquePhone(), ...payload },
      });
    const without = await join({ newsletterDelivery: 'email' });
    expect(without.statusCode).toBe(400);
    expect(without.body).toContain(EMAIL_NEEDED_MESSAGE);
    expect((await join({ email: 'jo@example.org', newsletterDelivery: 'email' })).statusCode).toBe(200);
    await sweepUntilIdle(t.app.ctx);
    const [mail] = to('jo@example.org');
    expect(mail?.parsed.subject).toBe('Confirm your email address for Loop');
    expect(mail?.parsed.text).toContain("You asked to get Cousins's newsletter from Loop by email.");
    expect(String(mail?.parsed.html)).toContain('Confirm and get Cousins&#39;s newsletter</a>');
  });

  it('e-mail delivery without an address is a 400 that says so', async () => {
    const person = await createPerson(db());
    await expect(updateUser(db(), person.id, { newsletterDelivery: 'email' }, new Date(), config())).rejects.toThrow(EMAIL_NEEDED_MESSAGE);
  });
});

describe('the newsletter by e-mail', () => {
  it('goes to confirmed addresses; e-mail only gets no text; one-click unsubscribe stops later e-mail', async () => {
    const owner = await reader('owner@example.org', 'text');
    const both = await reader('both@example.org', 'both');
    const emailOnly = await reader('only@example.org', 'email');
    const unconfirmed = await reader('later@example.org', 'email', false);
    const loop = await createLoop(db(), { name: 'Smith Family', memberIds: [owner.id, both.id, emailOnly.id, unconfirmed.id] });
    const first = await draft(loop.id);
    await sendNewsletter(db(), {
      loopId: loop.id,
      newsletterId: first.id,
      now: new Date(),
      publicUrl: PUBLIC_URL,
      mail: mailLinksOf(config()),
    });
    await sweepUntilIdle(t.app.ctx);

    expect(to('both@example.org')).toHaveLength(1);
    expect(to('only@example.org')).toHaveLength(1);
    expect(to('later@example.org')).toHaveLength(0);
    expect(to('owner@example.org')).toHaveLength(0);
    const mail = to('only@example.org')[0]!.parsed;
    expect(mail.subject).toBe('March news');
    expect(mail.text).toContain('Grandma planted tomatoes.');
    expect(mail.html).toContain('<a href="https://loop.example.com/newsletters/');
    const texts = await db().select().from(messages).where(eq(messages.newsletterId, first.id));
    const textedUsers = texts.filter((m) => m.channel !== 'email').map((m) => m.userId);
    expect(textedUsers.sort()).toEqual([owner.id, both.id, unconfirmed.id].sort());

    // RFC 8058 3.1: the mail provider POSTs "List-Unsubscribe=One-Click" to the https URI.
    const header = String(sink.received.find((m) => m.envelopeTo.includes('only@example.org'))!.source.replace(/\r?\n[ \t]+/g, ' '));
    const url = /^List-Unsubscribe: <([^>]+)>/m.exec(header)?.[1];
    expect(url).toBeDefined();
    const path = url!.slice(PUBLIC_URL.length);
    expect(mail.html).toContain(url);
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('only@example.org');
    expect(page.body).not.toContain('Smith Family');
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    const me = await db().select().from(users).where(eq(users.id, emailOnly.id));
    expect(me[0]?.emailConfirmedAddress).toBe('only@example.org');

    const second = await draft(loop.id);
    await sendNewsletter(db(), {
      loopId: loop.id,
      newsletterId: second.id,
      now: new Date(),
      publicUrl: PUBLIC_URL,
      mail: mailLinksOf(config()),
    });
    await sweepUntilIdle(t.app.ctx);
    expect(to('only@example.org')).toHaveLength(1);
    expect(to('both@example.org')).toHaveLength(2);
    // Unsubscribed from e-mail, the member gets the text again: nothing is lost.
    const secondTexts = await db().select().from(messages).where(eq(messages.newsletterId, second.id));
    expect(secondTexts.filter((m) => m.channel !== 'email').map((m) => m.userId)).toContain(emailOnly.id);
  });

  it("the owner's Send Now question names who gets it by text and who by e-mail, as sending then does", async () => {
    const named = async (firstName: string, email: string, delivery: 'text' | 'email' | 'both', confirmed = true) => {
      const person = await reader(email, delivery, confirmed);
      await db().update(users).set({ firstName }).where(eq(users.id, person.id));
      return { ...person, firstName };
    };
    const people = [
      await named('Olga', 'olga@example.org', 'text'),
      await named('Bo', 'bo@example.org', 'both'),
      await named('Eve', 'eve@example.org', 'email'),
      await named('Una', 'una@example.org', 'email', false),
    ];
    const loop = await createLoop(db(), { name: 'Audience Family', memberIds: people.map((p) => p.id) });
    expect(await newsletterAudience(db(), loop.id)).toEqual({ byText: ['Olga', 'Bo', 'Una'], byEmail: ['Bo', 'Eve'] });
    const first = await draft(loop.id);
    await sendNewsletter(db(), {
      loopId: loop.id,
      newsletterId: first.id,
      now: new Date(),
      publicUrl: PUBLIC_URL,
      mail: mailLinksOf(config()),
    });
    const sent = await db().select().from(messages).where(eq(messages.newsletterId, first.id));
    const nameOf = (userId: number | null) => people.find((p) => p.id === userId)?.firstName;
    expect(sent.filter((m) => m.channel !== 'email').map((m) => nameOf(m.userId))).toEqual(['Olga', 'Bo', 'Una']);
    expect(sent.filter((m) => m.channel === 'email').map((m) => nameOf(m.userId))).toEqual(['Bo', 'Eve']);
  });

  it("goes out with the scheduler's send at the draft's time too, with its unsubscribe link", async () => {
    const member = await reader('scheduled@example.org', 'email');
    const loop = await createLoop(db(), { name: 'Scheduled Family', memberIds: [member.id] });
    const now = new Date();
    const row = await draft(loop.id);
    await db()
      .update(newsletters)
      .set({ sendAt: new Date(now.getTime() - 60_000), approvedAt: now })
      .where(eq(newsletters.id, row.id));
    const tick = await runSchedulerTick(t.app.ctx, { now, mode: 'draft' });
    expect(tick.newsletters).toBe(1);
    await sweepUntilIdle(t.app.ctx);
    const [mail] = to('scheduled@example.org');
    expect(mail?.parsed.subject).toBe('March news');
    linkIn(mail?.parsed.text ?? '', 'unsubscribe');
  });

  it("carries the member's own reply address when Loop takes replies (decision 0049), and none when not", async () => {
    const person = await reader('replies@example.org', 'email');
    const loop = await createLoop(db(), { name: 'Repliers', memberIds: [person.id] });
    const send = async (replyDomain: string | undefined) =>
      sendNewsletter(db(), {
        loopId: loop.id,
        newsletterId: (await draft(loop.id)).id,
        now: new Date(),
        publicUrl: PUBLIC_URL,
        mail: { ...mailLinksOf(config()), replyDomain },
      });
    await send(undefined);
    await send('replies.example.com');
    await sweepUntilIdle(t.app.ctx);
    const [without, withReply] = to('replies@example.org').map((m) => m.parsed);
    expect(without?.replyTo).toBeUndefined();
    expect(without?.html).not.toContain(REPLY_LINE.slice(0, 20));
    const [membership] = await db().select().from(members).where(eq(members.userId, person.id));
    const address = await replyAddressFor(db(), membership!.id, 'replies.example.com');
    expect(address).toMatch(/^reply\+[0-9a-f]{32}@replies\.example\.com$/);
    expect(withReply?.replyTo?.value[0]?.address).toBe(address);
    expect(withReply?.html).toContain(REPLY_LINE.slice(0, 20));
  });

  it('an e-mail queued before an unsubscribe is not sent', async () => {
    const person = await reader('queued@example.org', 'email');
    const loop = await createLoop(db(), { name: 'Jones', memberIds: [person.id] });
    const issue = await draft(loop.id);
    await sendNewsletter(db(), {
      loopId: loop.id,
      newsletterId: issue.id,
      now: new Date(),
      publicUrl: PUBLIC_URL,
      mail: mailLinksOf(config()),
    });
    const [row] = await db().select().from(messages).where(eq(messages.toAddress, 'queued@example.org'));
    const link = linkIn(row!.raw!.html!, 'unsubscribe');
    expect((await t.app.inject({ method: 'POST', url: link, payload: {} })).statusCode).toBe(200);
    await sweepUntilIdle(t.app.ctx);
    expect(to('queued@example.org')).toHaveLength(0);
    const [after] = await db().select().from(messages).where(eq(messages.id, row!.id));
    expect(after).toMatchObject({ status: 'failed' });
  });
});
