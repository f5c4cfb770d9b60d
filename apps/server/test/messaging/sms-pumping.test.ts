import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { phoneKind } from '@loop/shared/phone-kind';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { browser, newAccount, signUp, type TestApp } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { createPerson, testClock, useFakeTwilioApp } from '../helpers/messaging';
import { solveProofOfWork } from '../helpers/proof-of-work';

/**
 * SMS pumping (decision 0030): a stranger makes Loop text numbers that pay whoever holds them
 * (premium rate, satellite), or many numbers at once. Every test plays the attack against Loop
 * sending through Twilio (the real SDK, a fake Twilio on 127.0.0.1) and counts what was texted.
 */
const clock = testClock(new Date());
const env = useFakeTwilioApp({ clock });

const db = env.db;
let address = 0;
/** A new client address per request: these attacks come from many. */
const nextAddress = () => `198.18.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
const post = (app: TestApp, url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers, remoteAddress: nextAddress() });
const codeTextsTo = async (phones: string[]) =>
  db()
    .select()
    .from(messages)
    .where(and(inArray(messages.toAddress, phones), eq(messages.kind, 'code')));
const sentTo = (phones: string[]) => env.fake.sent.filter((s) => phones.includes(String(s.params.To).replace(/^whatsapp:/, '')));

describe('number types: Loop texts only numbers that are a person’s own phone', () => {
  // Each with what libphonenumber's full metadata says it is: [type, country].
  const refused: Record<string, [string, string | null]> = {
    '+449090123456': ['PREMIUM_RATE', 'GB'], // UK 09
    '+33810123456': ['SHARED_COST', 'FR'], // France 0810
    '+4901371234567': ['SHARED_COST', 'DE'], // Germany 0137
    '+447012345678': ['PERSONAL_NUMBER', 'GB'], // UK 070 "personal numbers": forwarding, paid per call
    '+443001234567': ['UAN', 'GB'], // UK 03 company numbers
    '+18005551234': ['TOLL_FREE', 'US'],
    '+881612345678': ['MOBILE', null], // satellite (Iridium, Globalstar)
    '+870773111632': ['MOBILE', null], // Inmarsat
    '+88216123456': ['VOIP', null], // international networks
  };
  const phones = Object.keys(refused);

  it('the list holds what it says', () => {
    for (const [phone, [type, country]] of Object.entries(refused)) expect(phoneKind(phone)).toEqual({ type, country });
  });

  it('refuses them for sign-up codes, resends, password resets, members and joins with a 400 that says so, and texts nothing', async () => {
    const app = await env.t.rebuild({ SMS_COUNTRIES: 'all' });
    const owner = await signUp(app, {}, { remoteAddress: nextAddress() });
    const loop = await createLoopAs(app, owner.cookie, { name: 'Family' });
    const invite = await app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } });
    const code = String(invite.json<{ inviteUrl: string }>().inviteUrl).split('/').pop();
    for (const phone of phones) {
      const answers = [
        await post(app, '/api/register', newAccount({ phoneNumber: phone })),
        await post(app, '/api/register/resend', { phoneNumber: phone }),
        await post(app, '/api/password-reset', { login: phone }),
        await post(app, `/api/loops/${loop.id}/members`, { firstName: 'X', lastName: 'Y', phoneNumber: phone }, { cookie: owner.cookie }),
        await post(app, `/api/invites/${code}/join`, { firstName: 'X', lastName: 'Y', phoneNumber: phone }),
      ];
      for (const answer of answers) {
        expect({ phone, status: answer.statusCode }).toEqual({ phone, status: 400 });
        expect(answer.json().message).toMatch(/^Loop can't text this kind of number \(.+\)\. Use a personal mobile phone number\.$/);
      }
    }
    expect(await codeTextsTo(phones)).toEqual([]);
    await sweepUntilIdle(app.ctx);
    expect(sentTo(phones)).toEqual([]);
    // A person's own phone, mobile or landline, still works.
    expect((await post(app, '/api/register', newAccount({ phoneNumber: '+447911123456' }))).statusCode).toBe(202);
    expect((await post(app, '/api/register', newAccount({ phoneNumber: '+442079460958' }))).statusCode).toBe(202);
  });

  it('a text already queued to such a number is not sent: the rule is checked again at the moment of sending', async () => {
    const person = await createPerson(db(), { phoneNumber: '+449090123457' });
    await db().transaction((tx) =>
      enqueueText(tx, { kind: 'reminder', userId: person.id, body: 'Time to share your news!', idempotencyKey: `pumping:${person.id}` }),
    );
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo([person.phoneNumber])).toEqual([]);
    const [row] = await db().select().from(messages).where(eq(messages.toAddress, person.phoneNumber));
    expect(row).toMatchObject({
      status: 'failed',
      error: "Not sent: Loop can't text this kind of number (a premium-rate number). Use a personal mobile phone number.",
    });
  });
});

describe('SMS_COUNTRIES: the countries Loop texts', () => {
  it('by default, only the country of TWILIO_FROM_NUMBER: a number elsewhere is refused with a message naming its country', async () => {
    const owner = await signUp(env.t.app, {}, { remoteAddress: nextAddress() });
    const loop = await createLoopAs(env.t.app, owner.cookie, { name: 'Abroad' });
    const german = '+4915112345678';
    const french = '+33612345678';
    const signUpAbroad = await post(env.t.app, '/api/register', newAccount({ phoneNumber: german }));
    expect(signUpAbroad.statusCode).toBe(400);
    expect(signUpAbroad.json().message).toBe("Loop can't text numbers in Germany: this Loop texts only numbers in United States.");
    const member = await post(
      env.t.app,
      `/api/loops/${loop.id}/members`,
      { firstName: 'A', lastName: 'B', phoneNumber: french },
      { cookie: owner.cookie },
    );
    expect(member.statusCode).toBe(400);
    expect(member.json().message).toBe("Loop can't text numbers in France: this Loop texts only numbers in United States.");
    expect(await codeTextsTo([german, french])).toEqual([]);
    // Listed, they are texted.
    const europe = await env.t.rebuild({ SMS_COUNTRIES: 'US,DE,FR' });
    expect((await post(europe, '/api/register', newAccount({ phoneNumber: german }))).statusCode).toBe(202);
    expect(
      (
        await post(
          europe,
          `/api/loops/${loop.id}/members`,
          { firstName: 'A', lastName: 'B', phoneNumber: french },
          { cookie: owner.cookie },
        )
      ).statusCode,
    ).toBe(201);
  });

  it('applies to every text, at the moment of sending: a text queued while a country was allowed is not sent once it is not', async () => {
    const person = await createPerson(db(), { phoneNumber: '+4915112345679', messagingPreference: 'whatsapp' });
    // Queued as if Germany had been allowed then (enqueueText does not read the countries).
    await db().transaction((tx) =>
      enqueueText(tx, { kind: 'reminder', userId: person.id, body: 'Time to share your news!', idempotencyKey: `country:${person.id}` }),
    );
    await sweepUntilIdle(env.t.app.ctx); // the default app: US only
    expect(sentTo([person.phoneNumber])).toEqual([]);
    const [row] = await db().select().from(messages).where(eq(messages.toAddress, person.phoneNumber));
    expect(row).toMatchObject({
      status: 'failed',
      error: "Not sent: Loop can't text numbers in Germany: this Loop texts only numbers in United States.",
    });
  });
});

describe('caps on code texts', () => {
  it('a phone gets at most 10 reset code texts a day, each purpose counted on its own (decision 0052)', async () => {
    const { account } = await signUp(env.t.app, {}, { remoteAddress: nextAddress() });
    const phone = account.phoneNumber;
    // The sign-up code, then twelve "Forgot password?" over three hours, each past the 30-second
    // wait and within the 5 an hour: without a daily cap, 12 codes. (From one browser: while its
    // code waits, another browser's request texts nothing, decision 0027.)
    const tab = browser(env.t.app);
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < (hour < 2 ? 5 : 2); i++) {
        expect((await tab.post('/api/password-reset', { login: account.email })).statusCode).toBe(202);
        clock.advance(31_000);
      }
      clock.advance(60 * 60_000);
    }
    // The sign-up code, then 10 resets: the resets' own cap, which the sign-up code did not use up.
    expect(await codeTextsTo([phone])).toHaveLength(11);
  });
});

describe('proof-of-work before a code is texted (SIGNUP_PROOF_OF_WORK=on)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await env.t.rebuild({ SIGNUP_PROOF_OF_WORK: 'on' });
  });
  const solve = () => solveProofOfWork(async (path) => (await app.inject({ method: 'GET', url: path })).json());

  it('without a solved challenge, sign-up, resend and "Forgot password?" text nothing, and say what to do', async () => {
    const account = newAccount();
    const forms = [
      ['/api/register', account],
      ['/api/register/resend', { phoneNumber: account.phoneNumber }],
      ['/api/password-reset', { login: account.phoneNumber }],
    ] as const;
    for (const [url, form] of forms) {
      for (const altcha of [undefined, '', 'bm90IGEgcHJvb2Y=', 'x'.repeat(100)]) {
        const res = await post(app, url, { ...form, ...(altcha === undefined ? {} : { altcha }) });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
        expect(res.json().message).toBe(
          'The automatic check against spam is missing or did not finish. Reload the page and send the form again.',
        );
      }
    }
    expect(await codeTextsTo([account.phoneNumber])).toEqual([]);
  });

  it('a solved challenge lets one form through, once: a replayed proof is refused', async () => {
    const altcha = await solve();
    expect(altcha).toBeTypeOf('string');
    expect((await post(app, '/api/register', newAccount({ altcha }))).statusCode).toBe(202);
    const replay = await post(app, '/api/register', newAccount({ altcha }));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This automatic check against spam was already used. Send the form again.');
    // Another solved challenge: through.
    expect((await post(app, '/api/password-reset', { login: 'nobody@example.com', altcha: await solve() })).statusCode).toBe(202);
  });

  it('a forged or changed proof is refused: another key, another cost, a challenge not signed by this server', async () => {
    const altcha = (await solve()) as string;
    const proof = JSON.parse(Buffer.from(altcha, 'base64').toString()) as {
      challenge: { parameters: Record<string, unknown>; signature: string };
      solution: { counter: number; derivedKey: string };
    };
    const forged = [
      { ...proof, solution: { ...proof.solution, derivedKey: '00'.repeat(32) } },
      { ...proof, challenge: { ...proof.challenge, parameters: { ...proof.challenge.parameters, cost: 1 } } },
      { ...proof, challenge: { ...proof.challenge, signature: 'ab'.repeat(32) } },
    ];
    for (const f of forged) {
      const res = await post(app, '/api/register', newAccount({ altcha: Buffer.from(JSON.stringify(f)).toString('base64') }));
      expect(res.statusCode).toBe(400);
    }
  });

  it('a challenge expires after 20 minutes', async () => {
    const altcha = await solve();
    clock.advance(20 * 60_000 + 1000);
    const late = await post(app, '/api/register', newAccount({ altcha }));
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('The automatic check against spam has expired. Send the form again.');
  });

  it('GET /api/proof-of-work answers no challenge when the check is off', async () => {
    expect((await env.t.app.inject({ method: 'GET', url: '/api/proof-of-work' })).json()).toEqual({ challenge: null });
  });
});
