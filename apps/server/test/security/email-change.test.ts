import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, messages, users } from '../../src/db/schema';
import { enqueueEmail } from '../../src/mail/outbox';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../helpers/app';

// An address becomes an account's only once its holder follows the link e-mailed to it (decision
// 0054): typing a text-only member's address on the Profile takes nothing, and the answers are
// the same whoever holds the address, so they tell nobody whether it has an account or stands
// unsubscribed or bouncing.
let t: TestContext;
let mallory: Awaited<ReturnType<typeof signUp>>;
const TEX = 'tex.typed@example.com';
const SECRET_MAIL = 'Tex, your aunt’s address is 12 Garden Row';

beforeAll(async () => {
  t = await createTestApp();
  mallory = await signUp(t.app, { firstName: 'Mallory' });
  // A text-only member whose owner typed their address, and mail Loop sent them.
  const [tex] = await t.app.ctx.db
    .insert(users)
    .values({ email: TEX, firstName: 'Tex', lastName: 'Only', phoneNumber: uniquePhone() })
    .returning();
  await enqueueEmail(t.app.ctx.db, {
    kind: 'confirm_address',
    toAddress: TEX,
    subject: 'For Tex',
    text: SECRET_MAIL,
    idempotencyKey: 'tex-mail',
    userId: tex!.id,
  });
});
afterAll(() => t.close());

const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie: mallory.cookie }, payload });
const mailSimulator = async () => (await t.app.inject({ url: '/api/simulator/mail', headers: { cookie: mallory.cookie } })).body;

describe('story: Mallory types a text-only member’s address on her Profile to read their mail', () => {
  it('takes nothing: the address stays the member’s, and the Mail Simulator never shows her their mail', async () => {
    const res = await put({ email: TEX });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: mallory.account.email });
    const [tex] = await t.app.ctx.db.select({ email: users.email }).from(users).where(eq(users.email, TEX));
    expect(tex?.email).toBe(TEX);
    expect(await mailSimulator()).not.toContain(SECRET_MAIL);

    // In simulator mode she reads her own link and follows it: the address becomes hers from then
    // on, and the mail it got before stays the member's.
    const [link] = await t.app.ctx.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.toAddress, TEX), eq(messages.userId, mallory.user.id)))
      .orderBy(desc(messages.id));
    const path = /\/email\/confirm\/[A-Za-z0-9_-]{43}/.exec(link?.body ?? '')?.[0];
    expect((await t.app.inject({ method: 'POST', url: path ?? '/' })).statusCode).toBe(200);
    expect(await mailSimulator()).not.toContain(SECRET_MAIL);
  });

  it('answers the same for an account’s, an unsubscribed, a bouncing and a new address', async () => {
    const other = await signUp(t.app);
    await t.app.ctx.db.insert(emailSuppressions).values([
      { address: 'gone@example.com', reason: 'unsubscribed' },
      { address: 'bounce@example.com', reason: 'bounced', detail: '550 5.1.1 no such user' },
    ]);
    const answers = [];
    for (const email of [other.account.email, 'gone@example.com', 'bounce@example.com', 'new-one@example.com']) {
      const res = await put({ email });
      answers.push({ status: res.statusCode, body: res.json<object>() });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
  });
});

describe('confirmation e-mails per account (decision 0054)', () => {
  it('sends at most 5 an hour for one account, whatever the addresses, then says when to try again', async () => {
    const sender = await signUp(t.app, { firstName: 'Sender' });
    const change = (email: string) =>
      t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie: sender.cookie }, payload: { email } });
    for (let i = 1; i <= 5; i++) expect((await change(`stranger-${i}@example.com`)).statusCode).toBe(200);
    const sixth = await change('stranger-6@example.com');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe(
      'Loop sent 5 confirmation emails for your account in the last hour. Follow the link in the last one, or try again in an hour.',
    );
    const mailed = await t.app.ctx.db.select({ to: messages.toAddress }).from(messages).where(eq(messages.userId, sender.user.id));
    expect(mailed.map((m) => m.to)).not.toContain('stranger-6@example.com');
    // A name change still works; an hour later, the next address gets its link.
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/user', headers: { cookie: sender.cookie }, payload: { lastName: 'S' } })).statusCode,
    ).toBe(200);
    await t.app.ctx.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 3_700_000) })
      .where(eq(messages.userId, sender.user.id));
    expect((await change('stranger-6@example.com')).statusCode).toBe(200);
  });
});
