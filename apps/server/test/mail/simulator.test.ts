import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorEmail } from '@loop/shared/simulator';
import { messages, users } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueEmail } from '../../src/mail/outbox';
import { createTestApp, signUp, type TestApp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createLoop, createPerson } from '../helpers/messaging';

/**
 * GET /api/simulator/mail: the Mail Simulator's list. The Phone Simulator's gate (signed in; while
 * texts are real, staff only), a 404 while real e-mail is on (SMTP_URL), and the e-mails of the
 * people whose phones the viewer may play (services/simulator-access.ts): their own, and the
 * text-only members' of the Loops they own; never another account holder's.
 */
let t: TestContext;
let maya: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let boss: Awaited<ReturnType<typeof signUp>>;
let ids: Record<string, number>;

const mail = (app: TestApp, cookie?: string) => app.inject({ url: '/api/simulator/mail', headers: cookie ? { cookie } : {} });
const subjects = (res: { json: () => unknown }) => (res.json() as { emails: SimulatorEmail[] }).emails.map((e) => e.subject);

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com' });
  const db = t.testDb.database.db;
  maya = await signUp(t.app, { firstName: 'Maya', email: 'maya@example.com' });
  const mate = await signUp(t.app, { firstName: 'Mia', email: 'mia@example.com' });
  stranger = await signUp(t.app, { firstName: 'Sam', email: 'sam@example.com' });
  boss = await signUp(t.app, { firstName: 'Boss', email: 'boss@example.com' });
  const theo = await createPerson(db, { firstName: 'Theo' });
  await db.update(users).set({ email: 'theo@example.com' }).where(eq(users.id, theo.id));
  const zed = await createPerson(db, { firstName: 'Zed' });
  await db.update(users).set({ email: 'zed@example.com' }).where(eq(users.id, zed.id));
  const garden = await createLoop(db, { name: 'Garden Club', memberIds: [maya.user.id, theo.id, mate.user.id] });
  // Zed's Loop: Sam is a member there, not its owner.
  await createLoop(db, { name: 'Elsewhere', memberIds: [zed.id, stranger.user.id] });

  const at = (minute: number) => new Date(Date.UTC(2026, 2, 14, 9, minute));
  const outbound = (subject: string, to: string, minute: number, extra: Partial<typeof messages.$inferInsert> = {}) => ({
    direction: 'outbound' as const,
    channel: 'email' as const,
    kind: 'newsletter',
    toAddress: to,
    fromAddress: 'loop@localhost',
    body: `${subject} (text)`,
    status: 'sent',
    raw: {
      subject,
      html: `<p>${subject}</p>`,
      headers: JSON.stringify({ 'List-Unsubscribe': '<http://localhost/email/unsubscribe/t1>', 'Message-ID': `<${minute}@localhost>` }),
    },
    createdAt: at(minute),
    sentAt: at(minute),
    ...extra,
  });
  const rows = await db
    .insert(messages)
    .values([
      outbound('To Maya by address', 'maya@example.com', 1, { kind: 'confirm_address', loopId: null }),
      outbound('To Theo, text-only in my Loop', 'theo@example.com', 2, { userId: theo.id, loopId: garden.id }),
      outbound('To Mia, an account holder in my Loop', 'mia@example.com', 3, { userId: mate.user.id, loopId: garden.id }),
      outbound('To Zed, elsewhere', 'zed@example.com', 4, { userId: zed.id }),
      outbound('To Sam', 'sam@example.com', 5, { userId: stranger.user.id, status: 'queued', sentAt: null }),
      {
        direction: 'inbound' as const,
        channel: 'email' as const,
        kind: 'inbound',
        toAddress: 'reply+abc@localhost',
        fromAddress: 'Theo@Example.com',
        body: 'We planted tomatoes.',
        status: 'processed',
        raw: { subject: 'Re: Garden Club', messageId: '<reply-1@example.com>' },
        createdAt: at(6),
      },
      // A text is not an e-mail.
      {
        direction: 'outbound' as const,
        channel: 'sms' as const,
        kind: 'welcome',
        toAddress: maya.account.phoneNumber,
        fromAddress: '+15005550006',
        body: 'Hi',
        status: 'sent',
        createdAt: at(7),
      },
    ])
    .returning({ id: messages.id, subject: messages.raw });
  ids = Object.fromEntries(rows.map((row) => [String(row.subject?.subject ?? 'sms'), row.id]));
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/simulator/mail', () => {
  it('needs a session', async () => {
    const res = await mail(t.app);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please log in to continue.' });
  });

  it('shows an owner their own e-mails and their text-only members’, newest first, with headers and both parts', async () => {
    const res = await mail(t.app, maya.cookie);
    expect(res.statusCode).toBe(200);
    expect(subjects(res)).toEqual(['Re: Garden Club', 'To Theo, text-only in my Loop', 'To Maya by address']);
    const { emails } = res.json<{ emails: SimulatorEmail[] }>();
    expect(emails[1]).toEqual({
      id: ids['To Theo, text-only in my Loop'],
      direction: 'outbound',
      from: 'loop@localhost',
      to: 'theo@example.com',
      subject: 'To Theo, text-only in my Loop',
      date: '2026-03-14T09:02:00.000Z',
      status: 'sent',
      kind: 'newsletter',
      headers: { 'List-Unsubscribe': '<http://localhost/email/unsubscribe/t1>', 'Message-ID': '<2@localhost>' },
      text: 'To Theo, text-only in my Loop (text)',
      html: '<p>To Theo, text-only in my Loop</p>',
    });
    // An inbound reply: from its sender, its Message-ID as a header, no HTML kept.
    expect(emails[0]).toMatchObject({
      direction: 'inbound',
      from: 'Theo@Example.com',
      headers: { 'Message-ID': '<reply-1@example.com>' },
      html: null,
    });
    expect(emails[2]).toMatchObject({ kind: 'confirm_address' });
  });

  it('never shows a stranger anyone else’s mail, nor an owner an account holder’s', async () => {
    expect(subjects(await mail(t.app, stranger.cookie))).toEqual(['To Sam']);
    expect(subjects(await mail(t.app, maya.cookie))).not.toContain('To Mia, an account holder in my Loop');
  });

  it('shows staff every e-mail, a queued one dated when it was stored', async () => {
    const res = await mail(t.app, boss.cookie);
    expect(subjects(res)).toEqual([
      'Re: Garden Club',
      'To Sam',
      'To Zed, elsewhere',
      'To Mia, an account holder in my Loop',
      'To Theo, text-only in my Loop',
      'To Maya by address',
    ]);
    expect(res.json<{ emails: SimulatorEmail[] }>().emails[1]).toMatchObject({ status: 'queued', date: '2026-03-14T09:05:00.000Z' });
  });

  it('shows what the outbox sent through the simulator transport, with the headers it went out with', async () => {
    const db = t.testDb.database.db;
    const id = await db.transaction((tx) =>
      enqueueEmail(tx, {
        kind: 'confirm_address',
        toAddress: 'Maya@Example.com',
        subject: 'Confirm your address for Loop',
        text: 'Open this link to confirm.',
        idempotencyKey: 'mail-simulator:confirm',
        userId: maya.user.id,
      }),
    );
    expect(id).not.toBeNull();
    const queued = (await mail(t.app, maya.cookie)).json<{ emails: SimulatorEmail[] }>().emails.find((e) => e.id === id);
    // Not sent yet: MAIL_FROM's address, no HTML part.
    expect(queued).toMatchObject({ status: 'queued', from: 'Loop <loop@localhost>', html: null, kind: 'confirm_address' });
    await sweepUntilIdle(t.app.ctx);
    const [sent] = (await mail(t.app, maya.cookie)).json<{ emails: SimulatorEmail[] }>().emails;
    expect(sent).toMatchObject({
      id,
      status: 'sent',
      to: 'maya@example.com',
      subject: 'Confirm your address for Loop',
      text: 'Open this link to confirm.',
    });
    expect(sent!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(sent!.headers['List-Unsubscribe']).toMatch(/^<http.*\/email\/unsubscribe\/.+>/);
    expect(sent!.headers['Message-ID']).toMatch(/^<.+@localhost>$/);
    // Sam sees none of it.
    expect(subjects(await mail(t.app, stranger.cookie))).toEqual(['To Sam']);
  });

  it('is a 404 while real e-mail is on, for staff too, and /api/config says which', async () => {
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ mailTransport: 'simulator' });
    const smtp = await t.rebuild({ SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect((await smtp.inject({ url: '/api/config' })).json()).toMatchObject({ mailTransport: 'smtp' });
    for (const cookie of [maya.cookie, boss.cookie]) {
      const res = await mail(smtp, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'The Mail Simulator is off: Loop is sending real e-mail.' });
    }
  });

  describe('while texts are real (Twilio)', () => {
    let fake: FakeTwilio;
    beforeAll(async () => {
      fake = await startFakeTwilio();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('is for staff only, like the Phone Simulator', async () => {
      const real = await t.rebuild(twilioEnv(fake));
      expect((await mail(real, maya.cookie)).statusCode).toBe(403);
      expect((await mail(real, boss.cookie)).statusCode).toBe(200);
    });
  });
});
