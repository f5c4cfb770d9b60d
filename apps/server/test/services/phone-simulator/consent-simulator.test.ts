import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorMessage } from '@loop/shared/simulator';
import { members, messages, users } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { isOptedOut, optOutPhone } from '../../../src/messaging/opt-outs';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, addMemberAs, createLoopAs } from '../../helpers/loops';
import { createPerson, updatesOf } from '../../helpers/messaging';

// The Phone Simulator and membership consent (decisions 0015 and 0031): who may play which phone, and see which texts.
let t: TestContext;
let alice: Awaited<ReturnType<typeof signUp>>;
let bob: Awaited<ReturnType<typeof signUp>>;
let carol: Awaited<ReturnType<typeof signUp>>;
let dan: Awaited<ReturnType<typeof createPerson>>;
let family: { id: number };
let bobs: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.testDb.database.db;
  alice = await signUp(t.app, { firstName: 'Alice' });
  bob = await signUp(t.app, { firstName: 'Bob' });
  carol = await signUp(t.app, { firstName: 'Carol' });
  dan = await createPerson(db, { firstName: 'Dan' });
  family = await createLoopAs(t.app, alice.cookie, { name: 'Smith Family' });
  bobs = await createLoopAs(t.app, bob.cookie, { name: "Bob's Loop" });
  await addActiveMemberAs(t.app, alice.cookie, family.id, { phoneNumber: carol.account.phoneNumber });
  await addActiveMemberAs(t.app, alice.cookie, family.id, { phoneNumber: dan.phoneNumber });
  await db.insert(messages).values({
    direction: 'outbound',
    channel: 'sms',
    kind: 'newsletter',
    toAddress: dan.phoneNumber,
    fromAddress: '',
    body: 'Smith Family newsletter: https://loop.example/newsletters/private-link',
    status: 'sent',
    loopId: family.id,
    userId: dan.id,
  });
});
afterAll(() => t.close());

const thread = (cookie: string, phone: string) =>
  t.app.inject({ url: `/api/simulator/phones/${encodeURIComponent(phone)}/messages`, headers: { cookie } });
const send = (cookie: string, phone: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/simulator/phones/${encodeURIComponent(phone)}/messages`,
    headers: { cookie },
    payload: { body },
  });

describe("story: the Phone Simulator shows anyone's thread", () => {
  it("adding an account holder's phone to your Loop does not let you play it", async () => {
    await addMemberAs(t.app, bob.cookie, bobs.id, { phoneNumber: carol.account.phoneNumber });
    expect((await thread(bob.cookie, carol.account.phoneNumber)).statusCode).toBe(404);
    expect((await send(bob.cookie, carol.account.phoneNumber, 'typed by Bob')).statusCode).toBe(404);
    const phones = (await t.app.inject({ url: '/api/simulator/phones', headers: { cookie: bob.cookie } })).json<{
      phones: { phoneNumber: string }[];
    }>();
    expect(phones.phones.map((p) => p.phoneNumber)).toEqual([bob.account.phoneNumber]);
  });

  it("a plain member cannot play the owner's phone", async () => {
    expect((await thread(carol.cookie, alice.account.phoneNumber)).statusCode).toBe(404);
    expect((await send(carol.cookie, alice.account.phoneNumber, 'typed by Carol')).statusCode).toBe(404);
    expect((await thread(carol.cookie, carol.account.phoneNumber)).statusCode).toBe(200);
  });

  it('an account holder invited after sign-up plays their own phone and says yes from it', async () => {
    const erin = await signUp(t.app, { firstName: 'Erin' });
    const phones = async () =>
      (await t.app.inject({ url: '/api/simulator/phones', headers: { cookie: erin.cookie } })).json<{
        phones: { phoneNumber: string; loops: { name: string }[] }[];
      }>().phones;
    expect(await phones()).toEqual([]);
    await addMemberAs(t.app, alice.cookie, family.id, { phoneNumber: erin.account.phoneNumber });
    expect((await phones()).map((p) => [p.phoneNumber, p.loops.map((l) => l.name)])).toEqual([
      [erin.account.phoneNumber, ['Smith Family']],
    ]);
    const seen = (await thread(erin.cookie, erin.account.phoneNumber)).json<{ messages: SimulatorMessage[] }>();
    expect(seen.messages.map((m) => m.kind)).toEqual(['code', 'invitation']);
    expect((await send(erin.cookie, erin.account.phoneNumber, 'YES')).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    const [row] = await t.testDb.database.db.select().from(members).where(eq(members.userId, erin.user.id));
    expect(row?.status).toBe('active');
  });

  it("a text-only member's phone shows only the owner's own Loop, and texts from it reach only that Loop", async () => {
    await addMemberAs(t.app, bob.cookie, bobs.id, { phoneNumber: dan.phoneNumber });
    const seen = (await thread(bob.cookie, dan.phoneNumber)).json<{ phone: { loops: { name: string }[] }; messages: SimulatorMessage[] }>();
    expect(seen.phone.loops.map((l) => l.name)).toEqual(["Bob's Loop"]);
    expect(seen.messages.map((m) => m.kind)).toEqual(['invitation']);
    expect(JSON.stringify(seen)).not.toContain('private-link');

    // Bob typing as Dan reaches nothing of Alice's, even after a YES (which only touches Bob's Loop).
    expect((await send(bob.cookie, dan.phoneNumber, 'Forged news')).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    expect(await updatesOf(t.testDb.database.db, family.id)).toEqual([]);
    await send(bob.cookie, dan.phoneNumber, 'YES');
    await send(bob.cookie, dan.phoneNumber, 'Forged again');
    await sweepUntilIdle(t.app.ctx);
    expect(await updatesOf(t.testDb.database.db, family.id)).toEqual([]);
    // "Forged news", sent while Dan was only invited to Bob's Loop (as Bob sees him), waited for the YES.
    expect((await updatesOf(t.testDb.database.db, bobs.id)).map((u) => u.content).sort()).toEqual(['Forged again', 'Forged news']);

    // Alice, whose Loop Dan is in, still sees her own texts to him and not Bob's.
    const alices = (await thread(alice.cookie, dan.phoneNumber)).json<{ messages: SimulatorMessage[] }>();
    expect(alices.messages.map((m) => m.body)).toContain('Smith Family newsletter: https://loop.example/newsletters/private-link');
    expect(alices.messages.some((m) => m.body.includes('Forged'))).toBe(false);
  });

  it('a phone that becomes an account (it claimed its number) is no longer playable by the owner; staff play any phone', async () => {
    const db = t.testDb.database.db;
    await db.update(users).set({ passwordHash: 'claimed' }).where(eq(users.id, dan.id));
    expect((await thread(alice.cookie, dan.phoneNumber)).statusCode).toBe(404);
    await db.update(users).set({ isStaff: true }).where(eq(users.id, bob.user.id));
    expect((await thread(bob.cookie, alice.account.phoneNumber)).statusCode).toBe(200);
    const [row] = await db.select().from(members).where(eq(members.userId, carol.user.id));
    expect(row).toBeDefined();
  });
});

describe("story: playing someone's phone to change their standing in another owner's Loop (decision 0031)", () => {
  it('STOP, START, YES and texts from a played phone change nothing in a Loop the player does not own', async () => {
    const db = t.testDb.database.db;
    const mallory = await signUp(t.app, { firstName: 'Mallory' });
    const carolPhone = (await createPerson(db, { firstName: 'Carol' })).phoneNumber;
    const alices = await createLoopAs(t.app, alice.cookie, { name: 'Alice Cousins' });
    const mallorys = await createLoopAs(t.app, mallory.cookie, { name: 'Trap' });
    await addActiveMemberAs(t.app, alice.cookie, alices.id, { phoneNumber: carolPhone, firstName: 'Carol' });
    await addMemberAs(t.app, mallory.cookie, mallorys.id, { phoneNumber: carolPhone, firstName: 'Carol' });
    const standing = async () => {
      const [row] = await db
        .select({ status: members.status })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(eq(members.loopId, alices.id), eq(users.phoneNumber, carolPhone)));
      return { status: row?.status, optedOut: await isOptedOut(db, carolPhone) };
    };

    // YES and a text from Mallory's play reach only her own Loop (as before).
    expect((await send(mallory.cookie, carolPhone, 'YES')).statusCode).toBe(202);
    expect((await send(mallory.cookie, carolPhone, 'Forged news')).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    expect(await updatesOf(db, alices.id)).toEqual([]);

    // STOP (any of Twilio's words, any case) and START are refused: they would reach Alice's Loop.
    // An opt-out in any reasonable words (decision 0034) is an opt-out here too.
    for (const word of ['STOP', 'stop', 'Unsubscribe', 'START', 'unstop', 'Please stop texting me', 'opt out']) {
      const res = await send(mallory.cookie, carolPhone, word);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^The Phone Simulator takes STOP and START only from your own phone/);
    }
    await sweepUntilIdle(t.app.ctx);
    expect(await standing()).toEqual({ status: 'active', optedOut: false });

    // LOOPS names only the player's own Loops.
    expect((await send(mallory.cookie, carolPhone, 'LOOPS')).statusCode).toBe(202);
    await sweepUntilIdle(t.app.ctx);
    const seen = (await thread(mallory.cookie, carolPhone)).json<{ messages: SimulatorMessage[] }>();
    expect(seen.messages.at(-1)?.body).toMatch(/^Your Loops: "Trap"\./);
    expect(JSON.stringify(seen)).not.toContain('Alice Cousins');

    // Carol's own STOP (from her real phone) is not Mallory's to lift: no START, no YES, nothing.
    await optOutPhone(db, carolPhone, 'STOP', new Date());
    for (const word of ['START', 'YES', 'Trap: YES', 'hello']) {
      const res = await send(mallory.cookie, carolPhone, word);
      expect(res.statusCode).toBe(400);
    }
    await sweepUntilIdle(t.app.ctx);
    expect(await standing()).toEqual({ status: 'active', optedOut: true });
  });
});
