import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniquePhone, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { smsParams, statusParams } from '../helpers/twilio-fixtures';
import { digestTables } from './db-digest';

/**
 * docs/security.md#webhooks: what test/messaging/webhook.test.ts leaves open. It proves that an unsigned
 * request, a wrong signature and Twilio's retries of one MessageSid (five at once, and again after
 * processing) store nothing or one row; here a correctly signed request is replayed where it was
 * not signed for: another webhook, another host, an added query, altered, added or dropped
 * parameters, repeated fields. Each is a 403 (or 400) and changes nothing.
 */
const PUBLIC_URL = 'https://loop.example.com';
const MESSAGES = '/api/webhooks/twilio/messages';
const STATUS = '/api/webhooks/twilio/status';

let t: TestContext;
let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp(twilioEnv(fake, { PUBLIC_URL }));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const sign = (url: string, params: Record<string, string>) => twilio.getExpectedTwilioSignature(fake.authToken, url, params);
const post = (path: string, body: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    payload: body,
  });
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const db = () => t.testDb.database.db;

describe('a signed webhook replayed where it was not signed for', () => {
  const text = () => smsParams({ accountSid: fake.accountSid, from: uniquePhone(), body: 'hello' });

  it.each([
    [
      'to the other webhook',
      (p: Record<string, string>) => ({ path: STATUS, body: form(p), signature: sign(`${PUBLIC_URL}${MESSAGES}`, p) }),
    ],
    [
      'signed for another host',
      (p: Record<string, string>) => ({ path: MESSAGES, body: form(p), signature: sign(`https://evil.example.com${MESSAGES}`, p) }),
    ],
    [
      'signed over http',
      (p: Record<string, string>) => ({ path: MESSAGES, body: form(p), signature: sign(`http://loop.example.com${MESSAGES}`, p) }),
    ],
    [
      'with a query added to the URL',
      (p: Record<string, string>) => ({ path: `${MESSAGES}?Body=changed`, body: form(p), signature: sign(`${PUBLIC_URL}${MESSAGES}`, p) }),
    ],
    [
      'with the text changed',
      (p: Record<string, string>) => ({
        path: MESSAGES,
        body: form({ ...p, Body: 'send me everything' }),
        signature: sign(`${PUBLIC_URL}${MESSAGES}`, p),
      }),
    ],
    [
      'with the sender changed',
      (p: Record<string, string>) => ({
        path: MESSAGES,
        body: form({ ...p, From: '+14155550100' }),
        signature: sign(`${PUBLIC_URL}${MESSAGES}`, p),
      }),
    ],
    [
      'with a parameter added',
      (p: Record<string, string>) => ({
        path: MESSAGES,
        body: form({ ...p, MediaUrl0: 'https://api.twilio.com/x' }),
        signature: sign(`${PUBLIC_URL}${MESSAGES}`, p),
      }),
    ],
    [
      'with a parameter dropped',
      (p: Record<string, string>) => {
        const { FromCity: _dropped, ...rest } = p;
        return { path: MESSAGES, body: form(rest), signature: sign(`${PUBLIC_URL}${MESSAGES}`, p) };
      },
    ],
    [
      'with a field repeated',
      (p: Record<string, string>) => ({ path: MESSAGES, body: `${form(p)}&Body=second`, signature: sign(`${PUBLIC_URL}${MESSAGES}`, p) }),
    ],
  ])('%s: refused, nothing stored', async (_name, forge) => {
    const params = text();
    const forged = forge(params);
    const before = await digestTables(db());
    const res = await post(forged.path, forged.body, forged.signature);
    expect([400, 403]).toContain(res.statusCode);
    expect(typeof res.json().message).toBe('string');
    expect(await digestTables(db())).toBe(before);
    // The same request, as Twilio signed it, is accepted: the refusals above were the forgery's.
    expect((await post(MESSAGES, form(params), sign(`${PUBLIC_URL}${MESSAGES}`, params))).statusCode).toBe(200);
  });

  it('a status callback replayed to the messages webhook stores no text', async () => {
    const params = statusParams({ accountSid: fake.accountSid, messageSid: `SM${'0'.repeat(32)}`, status: 'delivered', to: uniquePhone() });
    const before = await digestTables(db());
    const res = await post(MESSAGES, form(params), sign(`${PUBLIC_URL}${STATUS}`, params));
    expect(res.statusCode).toBe(403);
    expect(await digestTables(db())).toBe(before);
  });
});

describe('the same signed text replayed', () => {
  it('ten times, one after another and ten at once, stores one row', async () => {
    const params = smsParams({ accountSid: fake.accountSid, from: uniquePhone(), body: 'only once' });
    const signature = sign(`${PUBLIC_URL}${MESSAGES}`, params);
    const first = await post(MESSAGES, form(params), signature);
    expect(first.statusCode).toBe(200);
    const after = await digestTables(db(), { except: ['sessions'] });
    for (let i = 0; i < 10; i++) expect((await post(MESSAGES, form(params), signature)).statusCode).toBe(200);
    const together = await Promise.all(Array.from({ length: 10 }, () => post(MESSAGES, form(params), signature)));
    expect(together.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await digestTables(db(), { except: ['sessions'] })).toBe(after);
  });
});
