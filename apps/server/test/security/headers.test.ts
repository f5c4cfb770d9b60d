import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { newsletters } from '../../src/db/schema';
import { newToken } from '../../src/lib/tokens';
import { pageAssets } from '../../src/publishing/page-assets';
import { createTestApp, signUp, testConfig, type TestApp, type TestContext } from '../helpers/app';
import { createLoopAs, insertUpdate } from '../helpers/loops';
import { JPEG } from '../helpers/messaging';

/**
 * docs/security.md#headers-on-every-response: every kind of answer (API JSON, every kind of error, the
 * web app's HTML and files, the public newsletter page, photos, not-found) carries a CSP without
 * inline scripts, with object-src 'none', base-uri and frame-ancestors; nosniff; HSTS exactly when
 * PUBLIC_URL is https; and nothing that names our software, its versions or its stack.
 */
const SECRET = 'db password is hunter2 at /srv/loop/src/db/client.ts:42';

let t: TestContext;
let webDist: string;
const apps: TestApp[] = [];
let fixture: { cookie: string; urlId: string; draftUrlId: string; photoKey: string };

/** An app on the shared test database, serving a stand-in web build, with two test-only routes that throw. */
async function appWith(env: Record<string, string>) {
  const app = await buildApp(testConfig(t.dataDir, { ADMIN_EMAILS: 'staff@example.com', AUTH_RATE_LIMIT_PER_IP: '2', ...env }), {
    database: t.testDb.database,
    webDist,
  });
  app.get('/api/test-only/throws', async () => {
    throw new Error(SECRET);
  });
  app.get('/test-only/page-throws', async () => {
    throw Object.assign(new TypeError(SECRET), { statusCode: 502 });
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
  webDist = mkdtempSync(path.join(tmpdir(), 'loop-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webDist, 'assets', 'app-1.js'), 'console.log("app")');

  const db = t.testDb.database.db;
  const owner = await signUp(t.app);
  const loop = await createLoopAs(t.app, owner.cookie);
  const photoKey = await t.app.ctx.storage.put(JPEG);
  await insertUpdate(db, loop.id, owner.user.id, 'A photo', [photoKey]);
  const letter = (status: 'sent' | 'draft') => ({
    loopId: loop.id,
    status,
    urlId: newToken('newsletterUrlId'),
    content: '# Hello',
    periodEnd: new Date(),
    sentAt: status === 'sent' ? new Date() : null,
  });
  const [sent, draft] = await db
    .insert(newsletters)
    .values([letter('sent'), letter('draft')])
    .returning();
  fixture = { cookie: owner.cookie, urlId: sent?.urlId ?? '', draftUrlId: draft?.urlId ?? '', photoKey };
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const HTML = { accept: 'text/html,application/xhtml+xml' };

/** One request of every kind of answer, with the status it must have. */
function requests(): [name: string, request: InjectOptions, status: number][] {
  const { cookie, urlId, draftUrlId, photoKey } = fixture;
  const json = { 'content-type': 'application/json' };
  return [
    ['API JSON', { url: '/api/health' }, 200],
    ['API JSON, signed in', { url: '/api/user', headers: { cookie } }, 200],
    ['API list', { url: '/api/loops', headers: { cookie } }, 200],
    ['400 bad JSON', { method: 'POST', url: '/api/login', headers: json, payload: '{"email":' }, 400],
    ['400 invalid input', { method: 'POST', url: '/api/register', payload: {} }, 400],
    ['400 broken %-escape', { url: '/api/loops/%zz' }, 400],
    ['401', { url: '/api/user' }, 401],
    ['403 admin', { url: '/api/admin/stats', headers: { cookie } }, 403],
    [
      '403 webhook',
      {
        method: 'POST',
        url: '/api/webhooks/twilio/messages',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'Body=hi',
      },
      403,
    ],
    ['404 API', { url: '/api/nothing-here' }, 404],
    ['404 Loop', { url: '/api/loops/99999999', headers: { cookie } }, 404],
    ['404 OPTIONS', { method: 'OPTIONS', url: '/api/loops' }, 404],
    ['413', { method: 'POST', url: '/api/login', headers: json, payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }) }, 413],
    ['414 overlong id', { url: `/api/loops/${'9'.repeat(300)}`, headers: { cookie } }, 414],
    ['415', { method: 'POST', url: '/api/login', headers: { 'content-type': 'text/plain' }, payload: 'x' }, 415],
    ['500 API', { url: '/api/test-only/throws' }, 500],
    ['500 page', { url: '/test-only/page-throws', headers: HTML }, 500],
    ['SPA HTML', { url: '/', headers: HTML }, 200],
    ['SPA HTML, deep link', { url: '/loops/1', headers: HTML }, 200],
    ['SPA HTML, not-found screen', { url: '/no/such/page', headers: HTML }, 200],
    ['web app file', { url: '/assets/app-1.js' }, 200],
    ['404 web app file', { url: '/assets/missing.js' }, 404],
    ['public newsletter page', { url: `/newsletters/${urlId}`, headers: HTML }, 200],
    ['public newsletter page, draft', { url: `/newsletters/${draftUrlId}`, headers: HTML }, 404],
    ['public newsletter page, unknown', { url: '/newsletters/unknown', headers: HTML }, 404],
    ['newsletter page file', { url: pageAssets.css.path }, 200],
    ['photo', { url: `/media/${photoKey}` }, 200],
    ['404 photo', { url: `/media/${'A'.repeat(43)}` }, 404],
  ];
}

/** The CSP's directives by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

function expectSafeHeaders(res: LightMyRequestResponse, label: string, https: boolean) {
  const csp = res.headers['content-security-policy'];
  expect(typeof csp, `${label}: Content-Security-Policy`).toBe('string');
  const d = directives(String(csp));
  const scripts = d.get('script-src') ?? d.get('default-src');
  expect(scripts, `${label}: script-src or default-src`).toBeDefined();
  expect(scripts, `${label}: inline scripts`).not.toContain("'unsafe-inline'");
  expect(scripts, `${label}: eval`).not.toContain("'unsafe-eval'");
  expect(d.get('object-src'), `${label}: object-src`).toEqual(["'none'"]);
  expect(["'none'", "'self'"], `${label}: base-uri`).toContain(d.get('base-uri')?.join(' '));
  expect(d.get('frame-ancestors'), `${label}: frame-ancestors`).toBeDefined();
  expect(res.headers['x-content-type-options'], `${label}: nosniff`).toBe('nosniff');
  if (https) expect(String(res.headers['strict-transport-security']), `${label}: HSTS`).toMatch(/max-age=(3153600\d|[4-9]\d{7}|\d{9,})/);
  else expect(res.headers['strict-transport-security'], `${label}: HSTS over http`).toBeUndefined();
  expect(res.headers['x-powered-by'], `${label}: X-Powered-By`).toBeUndefined();
  expect(res.headers.server, `${label}: Server`).toBeUndefined();
}

function expectNothingLeaked(res: LightMyRequestResponse, label: string) {
  expect(res.body, `${label}: error detail`).not.toContain('hunter2');
  expect(res.body, `${label}: a path`).not.toMatch(/\/srv\/|\/work\/|node_modules|\.ts:\d+/);
  expect(res.body, `${label}: a stack`).not.toMatch(/\bat \S+ \(|Error:/);
  expect(res.body, `${label}: software`).not.toMatch(/fastify|node\.js|v\d+\.\d+\.\d+|postgres|pglite|drizzle/i);
}

describe.each([
  ['http', 'http://loop.example.com'],
  ['https', 'https://loop.example.com'],
])('every kind of answer, PUBLIC_URL %s', (scheme, publicUrl) => {
  it('carries the security headers and leaks nothing', async () => {
    const app = await appWith({ PUBLIC_URL: publicUrl });
    // Attempt counts are shared by every app on the database: each scheme tries from its own address.
    const remoteAddress = scheme === 'https' ? '10.8.0.2' : '10.8.0.1';
    for (const [name, request, status] of requests()) {
      const res = await app.inject({ remoteAddress, ...request });
      const label = `${name} (${scheme})`;
      expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(status);
      expectSafeHeaders(res, label, scheme === 'https');
      if (res.statusCode >= 400) expectNothingLeaked(res, label);
    }
  });

  it("lets images come from PUBLIC_URL by name: the Mail Simulator's sandboxed frame has no 'self'", async () => {
    const app = await appWith({ PUBLIC_URL: publicUrl });
    const res = await app.inject({ url: '/simulator/mail' });
    expect(directives(String(res.headers['content-security-policy'])).get('img-src')).toEqual(["'self'", publicUrl, 'data:', 'blob:']);
  });
});

describe('a request that fails inside', () => {
  it('answers 500 with one generic message, whatever the error said', async () => {
    const app = await appWith({});
    for (const url of ['/api/test-only/throws', '/test-only/page-throws']) {
      const res = await app.inject({ url, headers: HTML });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    }
  });

  it('answers 429 with the same headers once the attempt limit is reached', async () => {
    const app = await appWith({ PUBLIC_URL: 'https://loop.example.com' });
    const login = () =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '10.1.2.3',
        payload: { email: 'nobody@example.com', password: 'wrong password' },
      });
    await login();
    await login();
    const limited = await login();
    expect(limited.statusCode).toBe(429);
    expectSafeHeaders(limited, '429', true);
    expectNothingLeaked(limited, '429');
  });
});
