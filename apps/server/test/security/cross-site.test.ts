import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestContext } from '../helpers/app';
import { addMemberAs, createLoopAs } from '../helpers/loops';
import { addUpdate, generateAs } from '../helpers/newsletters';
import { digestTables } from './db-digest';

/**
 * docs/security.md#cross-site-requests: a page on another site can make a browser send a form
 * (form-encoded, text/plain or multipart) or a body-less POST without asking first; it cannot send
 * JSON. So every state-changing API route refuses anything but JSON (415), and refuses requests
 * the browser marks as coming from another site (403). Both change nothing, not even a session.
 */
const STATE_CHANGING = ['POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Every route of these methods, read from Fastify's own route tree, so a new route cannot be missed. */
function routesOf(app: TestApp): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  for (const method of STATE_CHANGING) {
    const stack: string[] = [];
    for (const line of app.printRoutes({ method, commonPrefix: false }).split('\n')) {
      const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!match) continue;
      stack.length = (match[1] ?? '').length / 4;
      stack.push(match[2] ?? '');
      if (match[3]) routes.push({ method, url: stack.join('') });
    }
  }
  return routes;
}

const FIELDS = {
  name: 'Forged',
  context: 'forged',
  content: 'forged',
  message: 'forged',
  frequency: 'weekly',
  email: 'forged@example.com',
  password: 'forged password',
  firstName: 'Forged',
  lastName: 'Form',
  phoneNumber: '+14155550123',
  messagingPreference: 'whatsapp',
  body: 'forged',
};
const BOUNDARY = '----LoopForgedForm';
const FORGED_BODIES: Record<string, { type: string; payload: string }> = {
  'form-encoded': { type: 'application/x-www-form-urlencoded', payload: new URLSearchParams(FIELDS).toString() },
  // <form enctype="text/plain"> can spell out a JSON object in a field name and value.
  'text/plain': { type: 'text/plain', payload: JSON.stringify(FIELDS) },
  multipart: {
    type: `multipart/form-data; boundary=${BOUNDARY}`,
    payload:
      Object.entries(FIELDS)
        .map(([key, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`)
        .join('') + `--${BOUNDARY}--\r\n`,
  },
};

let t: TestContext;
let cookie: string;
let routes: { method: string; url: string; path: string }[];

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' });
  // Staff who also own the Loop: every route would let them through, if the body were JSON.
  const staff = await signUp(t.app, { email: 'staff@example.com' });
  cookie = staff.cookie;
  const member = await signUp(t.app);
  const loop = await createLoopAs(t.app, cookie);
  const added = await addMemberAs(t.app, cookie, loop.id, { phoneNumber: member.account.phoneNumber });
  const update = await addUpdate(t.testDb.database.db, loop.id, member.user.id, 'Our news');
  const draft = await generateAs(t.app, cookie, loop.id);
  const invite = await t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie } });
  const values: Record<string, string> = {
    id: String(loop.id),
    memberId: String(added.id),
    membershipId: String(added.id),
    updateId: String(update.id),
    newsletterId: String(draft.id),
    phone: encodeURIComponent(member.account.phoneNumber),
    code: invite.json<{ code: string }>().code,
  };
  routes = routesOf(t.app)
    .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/webhooks/'))
    .map((route) => ({ ...route, path: route.url.replace(/:(\w+)/g, (_all, name: string) => values[name] ?? `unknown-${name}`) }));
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;

describe('the JSON API', () => {
  it('has the state-changing routes this test expects to cover', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      [
        'DELETE /api/loops/:id',
        'DELETE /api/loops/:id/cover',
        'DELETE /api/user',
        'DELETE /api/loops/:id/members/:memberId',
        'DELETE /api/loops/:id/updates/:updateId',
        'POST /api/admin/loops/:id/bulk-sms',
        'POST /api/admin/loops/:id/toggle-pause',
        'POST /api/invites/:code/join',
        'POST /api/invitations/:membershipId/accept',
        'POST /api/invitations/:membershipId/decline',
        'POST /api/login',
        'POST /api/logout',
        'POST /api/loops',
        'POST /api/loops/:id/invite',
        'POST /api/loops/:id/members',
        'POST /api/loops/:id/members/:memberId/invitation',
        'POST /api/loops/:id/newsletters/:newsletterId/send',
        'POST /api/loops/:id/newsletters/generate',
        'POST /api/loops/:id/sneak-peek',
        'POST /api/password-reset',
        'POST /api/password-reset/confirm',
        'POST /api/register',
        'POST /api/register/resend',
        'POST /api/register/verify',
        'POST /api/simulator/phones/:phone/messages',
        'PUT /api/admin/loops/:id/frequency',
        'PUT /api/loops/:id',
        'PUT /api/loops/:id/cover',
        'PUT /api/loops/:id/members/:memberId',
        'PUT /api/loops/:id/newsletters/:newsletterId',
        'PUT /api/user',
        'PUT /api/user/phone-pin',
        'POST /api/user/password',
        'POST /api/user/phone',
        'POST /api/user/phone/verify',
        'POST /api/user/export',
        'POST /api/loops/:id/group-messages',
        'POST /api/loops/:id/group-messages/:messageId/cancel',
        'POST /api/loops/:id/group-messages/preview',
        'POST /api/loops/:id/newsletters/:newsletterId/approve',
        'POST /api/loops/:id/newsletters/:newsletterId/move',
        'POST /api/loops/:id/newsletters/:newsletterId/render',
        'POST /api/loops/:id/newsletters/:newsletterId/skip',
        'POST /api/loops/:id/newsletters/:newsletterId/unapprove',
        'PUT /api/loops/:id/reminder-questions',
        'POST /api/loops/:id/newsletters/:newsletterId/reactions',
        'PUT /api/loops/:id/owner',
      ].sort(),
    );
  });

  describe.each(Object.entries(FORGED_BODIES))('refuses a %s body', (kind, body) => {
    it('on every state-changing route with 415, and changes nothing', async () => {
      for (const route of routes) {
        // The router decodes %-escapes: "/%61pi/..." is the same route and must meet the same rule.
        for (const url of [route.path, route.path.replace('/api/', '/%61pi/')]) {
          const before = await digestTables(db());
          const res = await t.app.inject({
            method: route.method as 'POST',
            url,
            headers: { cookie, 'content-type': body.type },
            payload: body.payload,
          });
          expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(415);
          // The simulator's message route also takes files, but only with a header no other site can add.
          const filesToo = kind === 'multipart' && route.path.startsWith('/api/simulator/');
          expect(res.json()).toEqual({
            message: filesToo
              ? 'This endpoint takes files as multipart/form-data with the header x-loop-upload: 1, or JSON.'
              : 'This endpoint accepts JSON only: send Content-Type: application/json.',
          });
          expect(res.cookies, `${route.method} ${url} set a cookie`).toEqual([]);
          expect(await digestTables(db()), `${route.method} ${url} changed rows`).toBe(before);
        }
      }
    });
  });

  it.each(['cross-site', 'same-site'])('refuses requests a browser marks %s with 403, body or not, and changes nothing', async (site) => {
    for (const route of routes) {
      for (const [json, url] of [
        [false, route.path],
        [true, route.path],
        [false, route.path.replace('/api/', '/%61pi/')],
      ] as const) {
        const before = await digestTables(db());
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { cookie, 'sec-fetch-site': site, ...(json ? { 'content-type': 'application/json' } : {}) },
          ...(json ? { payload: JSON.stringify(FIELDS) } : {}),
        });
        expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(403);
        expect(res.json().message).toMatch(/another site/);
        expect(await digestTables(db()), `${route.method} ${url} changed rows`).toBe(before);
      }
    }
  });

  it('refuses a body without a Content-Type, as a no-cors fetch of a Blob sends it', async () => {
    for (const route of routes) {
      const before = await digestTables(db());
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: route.path,
        headers: { cookie },
        payload: JSON.stringify(FIELDS),
      });
      expect(res.statusCode, `${route.method} ${route.path}: ${res.body}`).toBe(415);
      expect(await digestTables(db())).toBe(before);
    }
  });

  it('still takes JSON from its own pages', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      payload: { messagingPreference: 'whatsapp' },
    });
    expect(res.statusCode).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(logout.statusCode).toBe(200);
  });
});
