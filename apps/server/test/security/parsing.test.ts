import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@loop/shared/constants';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { nestedJson } from '../helpers/parsing-attack';

/**
 * Parsing cannot freeze the server (decision 0032). A mebibyte of `[` cost most of a second of the
 * event loop to parse, before any gate or limit, and 16 connections sending it put /api/health's
 * median at seconds; 21 MB to the Phone Simulator's message route (which took 27 MB of base64
 * JSON) froze it for half a minute. JSON deeper than LIMITS.jsonDepth is now refused before it is
 * parsed, every JSON body keeps the 1 MiB limit, and files come to the simulator as a stream.
 */
const TOO_DEEP = `The request body is nested too deeply: at most ${LIMITS.jsonDepth} levels of arrays and objects.`;

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('deeply nested JSON', () => {
  it('is refused with 400 at once on every JSON route, signed in or not, webhooks too', async () => {
    const { cookie, account } = await signUp(t.app);
    const body = nestedJson(1024 * 1024);
    const routes: [string, string, string?][] = [
      ['POST', '/api/login'],
      ['POST', '/api/register'],
      ['POST', '/api/password-reset'],
      ['POST', '/api/invites/abcdefghijklmnopqrstuv/join'],
      ['POST', '/api/loops', cookie],
      ['PUT', '/api/user', cookie],
      ['POST', `/api/simulator/phones/${encodeURIComponent(account.phoneNumber)}/messages`, cookie],
      ['POST', '/api/webhooks/twilio/messages'],
    ];
    for (const [method, url, session] of routes) {
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { 'content-type': 'application/json', ...(session ? { cookie: session } : {}) },
        payload: body,
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json(), `${method} ${url}`).toEqual({ message: TOO_DEEP });
    }
  });

  it('keeps the 1 MiB limit, the 415 for bodies that are not JSON, and takes honest JSON as before', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: nestedJson(LIMITS.requestBytes + 2),
    });
    expect(big.statusCode).toBe(413);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'text/plain' },
      payload: nestedJson(1024),
    });
    expect(form.statusCode).toBe(415);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","password":"x","__proto__":{"isPrivileged":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    const honest = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });
    expect(honest.statusCode).toBe(401);
  });
});
