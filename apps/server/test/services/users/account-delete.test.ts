/**
 * "Delete my account" (GDPR Article 17; decision 0045) through the API, on a real database and
 * storage: the password asked again, owned Loops handed over or deleted as chosen, every update
 * and photo gone from storage and from sent newsletters' pages, the phone's opt-out kept as a
 * hash so it is never texted again, the texts kept as delivery logs without content, sessions
 * ended; other people untouched.
 */
import { and, eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedOptOuts, loops, members, messages, phoneOptOuts, updates, users } from '../../../src/db/schema';
import { isOptedOut, optOutHash, optOutPhone } from '../../../src/messaging/opt-outs';
import { templateWriter } from '../../../src/publishing/template-writer';
import { publishNewsletter } from '../../../src/services/newsletters/publish-newsletter';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs, insertUpdate } from '../../helpers/loops';
import { createPerson } from '../../helpers/messaging';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const db = () => t.app.ctx.db;
const call = (cookie: string | undefined, method: 'GET' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('DELETE /api/user', () => {
  it('deletes the person, their updates and photos everywhere, hands over or deletes their Loops, and keeps only a hashed STOP', async () => {
    const ann = await signUp(t.app, { firstName: 'Ann' });
    const ben = await signUp(t.app, { firstName: 'Ben' });
    const textOnly = await createPerson(db(), { firstName: 'Cy' });
    const kept = await createLoopAs(t.app, ann.cookie, { name: 'Book Club' });
    const doomed = await createLoopAs(t.app, ann.cookie, { name: 'Ann Alone' });
    await addActiveMemberAs(t.app, ann.cookie, kept.id, { phoneNumber: ben.user.phoneNumber });
    await addActiveMemberAs(t.app, ann.cookie, kept.id, { phoneNumber: textOnly.phoneNumber });
    const bens = await createLoopAs(t.app, ben.cookie, { name: 'Ben Family' });
    await addActiveMemberAs(t.app, ben.cookie, bens.id, { phoneNumber: ann.user.phoneNumber });

    const annPhoto = await t.app.ctx.storage.put(Buffer.from('ann photo bytes'));
    const benPhoto = await t.app.ctx.storage.put(Buffer.from('ben photo bytes'));
    const doomedPhoto = await t.app.ctx.storage.put(Buffer.from('doomed photo bytes'));
    await insertUpdate(db(), bens.id, ann.user.id, 'Ann secret engagement news', [annPhoto]);
    await insertUpdate(db(), bens.id, ben.user.id, 'Ben planted tomatoes', [benPhoto]);
    await insertUpdate(db(), doomed.id, ann.user.id, 'Only Ann saw this', [doomedPhoto]);
    await insertUpdate(db(), kept.id, ben.user.id, 'Ben joined the club');
    const published = await publishNewsletter(db(), {
      loopId: bens.id,
      now: new Date(Date.now() + 60_000),
      writer: templateWriter,
      publicUrl: 'http://localhost',
      send: true,
    });
    if (published.status !== 'sent') throw new Error(`not sent: ${published.status}`);
    const page = `/newsletters/${published.newsletter.urlId}`;
    expect((await t.app.inject({ url: page })).body).toContain('Ann secret engagement news');
    // An e-mail to Ann's address that no row of hers names (e.g. queued before her account was linked).
    const annEmail = ann.account.email.toLowerCase();
    await db().insert(messages).values({
      direction: 'outbound',
      channel: 'email',
      kind: 'newsletter',
      toAddress: annEmail,
      fromAddress: 'loop@localhost',
      body: 'Ann secret engagement news',
      status: 'sent',
    });
    // Ann had texted STOP once: it must outlive her account.
    await optOutPhone(db(), ann.user.phoneNumber, 'STOP', new Date());
    const otherSession = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: ann.account.email, password: ann.account.password },
    });
    const secondCookie = `loop_session=${otherSession.cookies.find((c) => c.name === 'loop_session')?.value}`;

    // Wrong password: a 4xx, and nothing happens.
    const wrong = await call(ann.cookie, 'DELETE', '/api/user', { password: 'not my password', deleteLoops: [kept.id, doomed.id] });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toMatch(/password is not right/);
    // Owned Loops not chosen for: a 409 that lists them.
    const unchosen = await call(ann.cookie, 'DELETE', '/api/user', { password: ann.account.password });
    expect(unchosen.statusCode).toBe(409);
    expect(unchosen.json().message).toContain('"Book Club"');
    expect(unchosen.json().message).toContain('"Ann Alone"');
    // A Loop can go only to an active member with an account; never someone else's Loop.
    const toTextOnly = await call(ann.cookie, 'DELETE', '/api/user', {
      password: ann.account.password,
      handOver: [{ loopId: kept.id, toUserId: textOnly.id }],
      deleteLoops: [doomed.id],
    });
    expect(toTextOnly.statusCode).toBe(400);
    const notHers = await call(ann.cookie, 'DELETE', '/api/user', {
      password: ann.account.password,
      deleteLoops: [kept.id, doomed.id, bens.id],
    });
    expect(notHers.statusCode).toBe(400);
    expect(await db().select().from(users).where(eq(users.id, ann.user.id))).toHaveLength(1);
    expect((await call(ann.cookie, 'GET', '/api/user/owned-loops')).json()).toEqual([
      { id: doomed.id, name: 'Ann Alone', memberCount: 1, candidates: [] },
      { id: kept.id, name: 'Book Club', memberCount: 3, candidates: [{ userId: ben.user.id, name: 'Ben Lovelace' }] },
    ]);

    const res = await call(ann.cookie, 'DELETE', '/api/user', {
      password: ann.account.password,
      handOver: [{ loopId: kept.id, toUserId: ben.user.id }],
      deleteLoops: [doomed.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'loop_session')).toMatchObject({ value: '' });

    // Signed out everywhere; the account is gone.
    expect((await call(ann.cookie, 'GET', '/api/user')).statusCode).toBe(401);
    expect((await call(secondCookie, 'GET', '/api/user')).statusCode).toBe(401);
    expect(await db().select().from(users).where(eq(users.id, ann.user.id))).toEqual([]);
    // Her Loops: one handed to Ben, one deleted with its photo.
    expect((await db().select().from(loops).where(eq(loops.id, kept.id)))[0]?.creatorId).toBe(ben.user.id);
    expect(await db().select().from(loops).where(eq(loops.id, doomed.id))).toEqual([]);
    expect(await t.app.ctx.storage.get(doomedPhoto)).toBeNull();
    // Her update and photo are gone from storage and from the sent newsletter's page; Ben's stay.
    expect(await db().select().from(updates).where(eq(updates.userId, ann.user.id))).toEqual([]);
    expect(await t.app.ctx.storage.get(annPhoto)).toBeNull();
    expect((await t.app.inject({ url: `/media/${annPhoto}` })).statusCode).toBe(404);
    const after = (await t.app.inject({ url: page })).body;
    expect(after).not.toContain('secret engagement');
    expect(after).not.toContain(annPhoto);
    expect(after).toContain('Ben planted tomatoes');
    expect(await t.app.ctx.storage.get(benPhoto)).toEqual(Buffer.from('ben photo bytes'));
    // Ben is untouched: signed in, his Loops and updates as they were.
    expect((await call(ben.cookie, 'GET', '/api/user')).statusCode).toBe(200);
    expect((await call(ben.cookie, 'GET', `/api/loops/${kept.id}`)).statusCode).toBe(200);
    expect(await db().select().from(updates).where(eq(updates.userId, ben.user.id))).toHaveLength(2);

    // The STOP is kept, as a hash only; her number is in no text's row.
    const phone = ann.user.phoneNumber;
    expect(await db().select().from(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phone))).toEqual([]);
    expect(
      await db()
        .select()
        .from(hashedOptOuts)
        .where(eq(hashedOptOuts.phoneHash, optOutHash(phone))),
    ).toHaveLength(1);
    expect(await isOptedOut(db(), phone)).toBe(true);
    const withNumber = await db()
      .select()
      .from(messages)
      .where(or(eq(messages.toAddress, phone), eq(messages.fromAddress, phone)));
    expect(withNumber).toEqual([]);
    // Nor her e-mail address: e-mails to and from it keep no address and no words.
    const withAddress = await db()
      .select()
      .from(messages)
      .where(or(eq(messages.toAddress, annEmail), eq(messages.fromAddress, annEmail)));
    expect(withAddress).toEqual([]);

    // Never texted again: Ben adds the number to his Loop; no invitation goes to it.
    await addMemberAs(t.app, ben.cookie, bens.id, { phoneNumber: phone, firstName: 'Ann' });
    const [again] = await db().select({ id: users.id }).from(users).where(eq(users.phoneNumber, phone));
    const queued = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.toAddress, phone), eq(messages.kind, 'invitation')));
    expect(queued).toEqual([]);
    expect(
      await db()
        .select()
        .from(members)
        .where(and(eq(members.userId, again!.id), eq(members.invitationWithheld, true))),
    ).toHaveLength(1);
  });

  it('a person who was never STOPped is opted out by their deletion all the same', async () => {
    const dee = await signUp(t.app, { firstName: 'Dee' });
    expect(await isOptedOut(db(), dee.user.phoneNumber)).toBe(false);
    const res = await call(dee.cookie, 'DELETE', '/api/user', { password: dee.account.password });
    expect(res.statusCode).toBe(200);
    expect(await isOptedOut(db(), dee.user.phoneNumber)).toBe(true);
  });

  it('refuses signed out (401), a body without a password (400), and guessing the password past the limit (429)', async () => {
    expect((await call(undefined, 'DELETE', '/api/user', { password: 'x' })).statusCode).toBe(401);
    const eve = await signUp(t.app, { firstName: 'Eve' });
    expect((await call(eve.cookie, 'DELETE', '/api/user', {})).statusCode).toBe(400);
    let last = 0;
    for (let i = 0; i < 12 && last !== 429; i++)
      last = (await call(eve.cookie, 'DELETE', '/api/user', { password: `guess ${i}` })).statusCode;
    expect(last).toBe(429);
    expect(await db().select().from(users).where(eq(users.id, eve.user.id))).toHaveLength(1);
  });
});
