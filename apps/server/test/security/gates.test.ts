import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext } from '../helpers/app';

/**
 * One gate per route folder (plugins/session.ts `gate`, docs/architecture.md#authorization): every
 * /api route but the public ones below answers 401 signed out, and the staff folders 403 to
 * everyone else, before the body is even read (a broken JSON body, a nonsense id: still 401 or
 * 403). A new route is gated by the folder it goes in; a new public one must be added here.
 */
const PUBLIC = [
  'POST /api/register',
  'POST /api/register/resend',
  'POST /api/register/verify',
  'GET /api/register/pending',
  'POST /api/password-reset',
  'POST /api/password-reset/confirm',
  'POST /api/login',
  'POST /api/logout',
  'GET /api/proof-of-work',
  'GET /api/config',
  'GET /api/invites/:code',
  'POST /api/invites/:code/join',
  'POST /api/webhooks/twilio/messages',
  'POST /api/webhooks/twilio/messages/',
  'POST /api/webhooks/twilio/status',
  'POST /api/webhooks/twilio/status/',
  // The phone line (decision 0067): Twilio's signature and the call's tagged state are its gates.
  'POST /api/webhooks/twilio/voice',
  'POST /api/webhooks/twilio/voice/',
  'POST /api/webhooks/twilio/voice/pin',
  'POST /api/webhooks/twilio/voice/loop',
  'POST /api/webhooks/twilio/voice/play',
  'POST /api/webhooks/twilio/voice/menu',
  'POST /api/webhooks/twilio/voice/recorded',
  'GET /api/webhooks/twilio/voice/media/:key',
  'GET /api/health',
  'GET /api/openapi.json',
];
/** routes/api/admin/ and routes/api/loops/staff-newsletters/ (sneak peeks; newsletters are the owner's too, decision 0040). */
const STAFF = /^\w+ (\/api\/admin\/|\/api\/loops\/:id\/sneak-peek)/;

let t: TestContext;
const routes: string[] = [];
beforeAll(async () => {
  t = await createTestApp(
    { ADMIN_EMAILS: 'staff@example.com' },
    {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat())
          if (method !== 'HEAD' && route.url.startsWith('/api/')) routes.push(`${method} ${route.url}`);
      },
    },
  );
});
afterAll(() => t.close());

const gated = () => routes.filter((route) => !PUBLIC.includes(route));

/** The route with a nonsense value for each path parameter and, if it takes one, a broken JSON body. */
function request(route: string, cookie?: string): InjectOptions {
  const [method = 'GET', path = '/'] = route.split(' ');
  const body = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return {
    method: method,
    url: path.replace(/:\w+/g, 'x'),
    headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: '{"broken' } : {}),
  };
}

describe('one gate per route folder', () => {
  it('lists every public /api route that exists, and gates the rest', () => {
    expect(routes).toEqual(expect.arrayContaining(PUBLIC));
    expect(gated()).toEqual(
      expect.arrayContaining([
        'GET /api/user',
        'GET /api/loops',
        'POST /api/loops/:id/sneak-peek',
        'GET /api/admin/stats',
        'GET /api/simulator/phones',
      ]),
    );
  });

  it('answers 401 signed out on every gated route, before the body or the path is read', async () => {
    for (const route of gated()) {
      const res = await t.app.inject(request(route));
      expect([route, res.statusCode, res.json()]).toEqual([route, 401, { message: 'Please log in to continue.' }]);
    }
  });

  it('answers 403 on every staff route to a signed-in person who is not staff, and lets them through the other gates', async () => {
    const { cookie } = await signUp(t.app);
    for (const route of gated()) {
      const res = await t.app.inject(request(route, cookie));
      if (STAFF.test(route))
        expect([route, res.statusCode, res.json()]).toEqual([route, 403, { message: 'This page is for Loop staff only.' }]);
      else expect([route, res.statusCode === 401 || res.statusCode === 403]).toEqual([route, false]);
    }
  });

  it('lets staff through every staff gate', async () => {
    const { cookie } = await signUp(t.app, { email: 'staff@example.com' });
    const staffRoutes = gated().filter((route) => STAFF.test(route));
    expect(staffRoutes.length).toBeGreaterThan(8);
    for (const route of staffRoutes) {
      const res = await t.app.inject(request(route, cookie));
      expect([route, res.statusCode === 401 || res.statusCode === 403]).toEqual([route, false]);
    }
  });
});
