import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/db/schema';
import { PROOF_OF_WORK, proofOfWorkSecrets } from '../../../src/services/proof-of-work/proof-of-work-policy';
import { browser, lastCodeTo, newAccount, signUp, type TestApp } from '../../helpers/app';
import { testClock, useFakeTwilioApp } from '../../helpers/messaging';

/**
 * The caps on code texts (decision 0051), played as the attacker did: they count texts actually
 * sent and never typed in, per number prefix and per country abroad, and past the service's
 * CODE_TEXTS_PER_HOUR the proof-of-work hardens; no cap shuts sign-up or reset for everyone.
 * Twilio's own model: Verify Fraud Guard (https://www.twilio.com/docs/verify/preventing-toll-fraud/sms-fraud-guard)
 * and Geo Permissions (https://www.twilio.com/docs/verify/preventing-toll-fraud#geo-permissions).
 */
const clock = testClock(new Date());
const env = useFakeTwilioApp({ clock });

/** A fresh hour: every earlier test's unused codes have aged out. */
const nextHour = () => clock.advance(61 * 60_000);
let address = 0;
const post = (app: TestApp, url: string, payload: object) =>
  app.inject({ method: 'POST', url, payload, remoteAddress: `198.18.7.${(++address % 250) + 1}` });
/** A US mobile-or-fixed number in its own prefix (all but the last four digits): +1628 2kk nnnn. */
const usNumber = (prefix: number, line: number) => `+1628${200 + prefix}${String(line).padStart(4, '0')}`;
const codeTexts = async (app: TestApp, phones: string[]) =>
  app.ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(inArray(messages.toAddress, phones), eq(messages.kind, 'code')));

describe('the cap counts code texts sent, not forms, and one attacker does not shut sign-up', () => {
  it('60 sign-up forms from two addresses to 12 phones (5 texts each, the per-phone cap) leave honest sign-ups and resets getting their codes', async () => {
    nextHour();
    const app = await env.t.rebuild({ CODE_TEXTS_PER_HOUR: '20' });
    const { account } = await signUp(app);
    const attackers = ['198.18.9.1', '198.18.9.2'];
    const phones = Array.from({ length: 12 }, (_, i) => usNumber(i, 1000 + i));
    const answers = new Set<number>();
    // More texts than CODE_TEXTS_PER_HOUR: each browser gets its own code (decision 0060), up to the phone's cap.
    for (let i = 0; i < 60; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/register',
        payload: newAccount({ phoneNumber: phones[i % phones.length] }),
        remoteAddress: attackers[i % 2],
      });
      answers.add(res.statusCode);
    }
    expect(answers).toEqual(new Set([202]));
    expect(await codeTexts(app, phones)).toHaveLength(60);

    const honest = newAccount();
    const started = await post(app, '/api/register', honest);
    expect(started.statusCode).toBe(202);
    expect(await lastCodeTo(app, honest.phoneNumber)).toMatch(/^\d{6}$/);
    expect((await post(app, '/api/password-reset', { login: account.email })).statusCode).toBe(202);
    expect(await codeTexts(app, [account.phoneNumber])).toHaveLength(2);
  });
});

describe('numbers that get codes nobody types in', () => {
  it('a prefix with CODE_TEXTS_PER_PREFIX unused codes gets no more this hour, and the form says no code went; other prefixes do', async () => {
    nextHour();
    const app = await env.t.rebuild({ CODE_TEXTS_PER_PREFIX: '3' });
    const pumped = [1, 2, 3, 4].map((line) => usNumber(50, line));
    const tabs = pumped.map(() => browser(app));
    for (const [i, phone] of pumped.slice(0, 3).entries()) {
      expect((await tabs[i]!.post('/api/register', newAccount({ phoneNumber: phone }))).statusCode).toBe(202);
    }
    const held = await tabs[3]!.post('/api/register', newAccount({ phoneNumber: pumped[3] }));
    expect(held.statusCode).toBe(429);
    expect(held.json().message).toMatch(
      /^No code was sent: many codes Loop texted to numbers starting like this one in the last hour were never used, so it sends no more for now\. Please try again in \d+ minutes?\.$/,
    );
    expect(await codeTexts(app, pumped)).toHaveLength(3);
    expect((await post(app, '/api/register', newAccount({ phoneNumber: usNumber(51, 1) }))).statusCode).toBe(202);

    // A code typed in stops counting: the prefix has room again.
    const code = await lastCodeTo(app, pumped[0]!);
    expect((await tabs[0]!.post('/api/register/verify', { phoneNumber: pumped[0], code })).statusCode).toBe(201);
    expect((await tabs[3]!.post('/api/register', newAccount({ phoneNumber: pumped[3] }))).statusCode).toBe(202);
    // An hour after the oldest unused code, the prefix gets codes again.
    nextHour();
    expect((await post(app, '/api/register', newAccount({ phoneNumber: usNumber(50, 9) }))).statusCode).toBe(202);
  });

  it('a country abroad gets at most a quarter of CODE_TEXTS_PER_HOUR unused codes an hour; the home country is not capped so', async () => {
    nextHour();
    const app = await env.t.rebuild({ CODE_TEXTS_PER_HOUR: '20', SMS_COUNTRIES: 'US,GB' });
    const british = Array.from({ length: 6 }, (_, i) => `+447400${100 + i}123`);
    const statuses = [];
    for (const phone of british) statuses.push((await post(app, '/api/register', newAccount({ phoneNumber: phone }))).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await post(app, '/api/register', newAccount({ phoneNumber: british[5] }))).json().message).toContain('numbers in this country');
    for (let i = 0; i < 8; i++) {
      expect((await post(app, '/api/register', newAccount({ phoneNumber: usNumber(60 + i, 1) }))).statusCode).toBe(202);
    }
  });
});

describe('past CODE_TEXTS_PER_HOUR unused codes, a harder proof-of-work instead of a refusal', () => {
  let app: TestApp;
  /** A challenge this server could have signed, with a small answer so the test solves it at once. */
  const proof = async (cost: number) => {
    const secret = app.ctx.config.SESSION_SECRET;
    const challenge = await createChallenge({
      algorithm: PROOF_OF_WORK.algorithm,
      cost,
      counter: 2,
      deriveKey,
      data: { expires: clock().getTime() + PROOF_OF_WORK.validMs },
      ...proofOfWorkSecrets(secret),
    });
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };
  const challengeCost = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/proof-of-work' });
    return res.json<{ challenge: Challenge }>().challenge.parameters.cost;
  };

  beforeAll(async () => {
    nextHour();
    app = await env.t.rebuild({ CODE_TEXTS_PER_HOUR: '4', SIGNUP_PROOF_OF_WORK: 'on' });
  });

  it('hands out the harder challenge, asks a form with the easy one to send again, and texts the code of a form with the harder one', async () => {
    expect(await challengeCost()).toBe(PROOF_OF_WORK.cost);
    for (let i = 0; i < 4; i++) {
      const res = await post(
        app,
        '/api/register',
        newAccount({ phoneNumber: usNumber(70 + i, 1), altcha: await proof(PROOF_OF_WORK.cost) }),
      );
      expect(res.statusCode).toBe(202);
    }
    expect(await challengeCost()).toBe(PROOF_OF_WORK.hardCost);
    const honest = newAccount({ phoneNumber: usNumber(80, 1) });
    const easy = await post(app, '/api/register', { ...honest, altcha: await proof(PROOF_OF_WORK.cost) });
    expect(easy.statusCode).toBe(400);
    expect(easy.json().message).toBe(
      'Loop asks for a stronger automatic check against spam for a while. Send the form again: it takes a few seconds.',
    );
    const hard = await post(app, '/api/register', { ...honest, altcha: await proof(PROOF_OF_WORK.hardCost) });
    expect(hard.statusCode).toBe(202);
    expect(await codeTexts(app, [honest.phoneNumber])).toHaveLength(1);
    // Once the unused codes age out, the usual challenge again.
    nextHour();
    expect(await challengeCost()).toBe(PROOF_OF_WORK.cost);
  });
});
