import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app';
import { messages } from '../../src/db/schema';
import { setStaff } from '../../src/services/users/set-staff';
import { loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './database';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

export interface TestContext {
  app: TestApp;
  testDb: TestDatabase;
  dataDir: string;
  /** Builds another app on the same database, with other settings. */
  rebuild: (env?: Record<string, string>) => Promise<TestApp>;
  close: () => Promise<void>;
}

/**
 * Emails that signUp() makes staff, per app. ADMIN_EMAILS is no longer a setting (decision 0013: staff
 * are granted, never claimed); tests still pass it to createTestApp, and the helper grants
 * staff the way an operator does (setStaff, what `npm run admin -- grant` runs) after the
 * code step, so no test depends on an address making anyone staff.
 */
const staffEmails = new WeakMap<TestApp, string[]>();

function withoutAdminEmails(env: Record<string, string>): { env: Record<string, string>; staff: string[] } {
  const { ADMIN_EMAILS, ...rest } = env;
  const staff = (ADMIN_EMAILS ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  return { env: rest, staff };
}

export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    // Tests add many members to one phone; test/services/inbound/consent.test.ts sets these low.
    LOOPS_PER_ACCOUNT_PER_HOUR: '100000',
    LOOPS_PER_ACCOUNT_PER_DAY: '100000',
    MEMBER_ADDS_PER_ACCOUNT_PER_HOUR: '100000',
    MEMBER_ADDS_PER_ACCOUNT_PER_DAY: '100000',
    INVITATIONS_PER_PHONE_PER_DAY: '100000',
    // test/services/invites/leaked-link.test.ts sets these low.
    JOINS_PER_INVITE_LINK_PER_HOUR: '100000',
    JOINS_PER_INVITE_LINK_PER_DAY: '100000',
    // Tests text many codes in an hour; test/services/phone-codes/code-text-budget.test.ts sets them low.
    CODE_TEXTS_PER_HOUR: '100000',
    CODE_TEXTS_PER_PREFIX: '100000',
    // Tests run at any hour against real clocks; test/messaging/quiet-hours*.test.ts turn quiet hours on.
    QUIET_HOURS: 'off',
    // Pacing off: at the default 1 text a second every text a test sends after the first waited a
    // real second (19 s in one consent test). The pacing tests (messaging-pacing, pacing-segments,
    // pacing-processes, messaging-send-batch, faults/worker-stop and sigterm) set a rate.
    SEND_RATE_PER_SECOND: '0',
    // The same for e-mail; test/mail/*.test.ts set a rate where pacing is the point.
    MAIL_RATE_PER_SECOND: '0',
    ...withoutAdminEmails(env).env,
  });
}

/** A real app on a fresh database. Close it in afterAll. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<BuildOptions, 'clock' | 'onRoute'> = {},
): Promise<TestContext> {
  const testDb = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-test-'));
  const apps: TestApp[] = [];
  const rebuild = async (extra: Record<string, string> = {}) => {
    const merged = { ...env, ...extra };
    const app = await buildApp(testConfig(dataDir, merged), { database: testDb.database, ...options });
    staffEmails.set(app, withoutAdminEmails(merged).staff);
    apps.push(app);
    return app;
  };
  const app = await rebuild();
  return {
    app,
    testDb,
    dataDir,
    rebuild,
    close: async () => {
      for (const a of apps) await a.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Area code 628, kept apart from the +1 415 555 numbers tests write out by hand.
let phoneCounter = 2_000_000 + Math.floor(Math.random() * 6_000_000);
/** A valid, unique US phone number in E.164. */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+1628${phoneCounter}`;
}

export function newAccount(overrides: Record<string, unknown> = {}) {
  const id = Math.random().toString(36).slice(2, 10);
  return {
    email: `person-${id}@example.com`,
    password: 'correct horse battery',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: uniquePhone(),
    messagingPreference: 'sms',
    ...overrides,
  };
}

/** The session cookie a response set, as a Cookie header value. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'loop_session');
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `loop_session=${cookie.value}`;
}

/**
 * The code in the last code text queued to a phone, read from the outbox row the provider (the
 * simulator, or Twilio) sends: what the phone's holder reads on their phone.
 */
export async function lastCodeTo(app: TestApp, phoneNumber: string): Promise<string> {
  const [text] = await app.ctx.db
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.toAddress, phoneNumber), eq(messages.kind, 'code')))
    .orderBy(desc(messages.id))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(text?.body ?? '')?.[1];
  if (!code) throw new Error(`no code was texted to ${phoneNumber}`);
  return code;
}

/**
 * One browser: keeps the cookies its answers set (by name, as a browser would for these paths)
 * and sends them back. Code-holder cookies bind a texted code to the browser that asked for it
 * (decision 0027), so every code form must go through the same browser.
 */
export function browser(app: TestApp, defaults: { remoteAddress?: string; headers?: Record<string, string> } = {}) {
  const jar = new Map<string, string>();
  const cookieHeader = () => {
    const own = [...jar].map(([name, value]) => `${name}=${value}`);
    return [defaults.headers?.cookie, ...own].filter((part) => part !== undefined && part !== '').join('; ');
  };
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const cookie = cookieHeader();
    const res = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      ...(defaults.remoteAddress ? { remoteAddress: defaults.remoteAddress } : {}),
      headers: { ...defaults.headers, ...(cookie ? { cookie } : {}) },
    });
    for (const set of res.cookies) {
      if (set.value === '' || (set.maxAge !== undefined && set.maxAge <= 0)) jar.delete(set.name);
      else jar.set(set.name, set.value);
    }
    return res;
  };
  return {
    post: (url: string, payload?: unknown) => send('POST', url, payload),
    put: (url: string, payload?: unknown) => send('PUT', url, payload),
    get: (url: string) => send('GET', url),
    /** The value of one of its cookies. */
    cookie: (name: string) => jar.get(name),
    /** Forgets every cookie, as a fresh browser. */
    clear: () => jar.clear(),
  };
}

/**
 * Signs an account up the whole way (form, then the code texted to the phone) in one browser and
 * returns it with its cookie. `headers`/`remoteAddress` go on both requests.
 */
export async function signUp(
  app: TestApp,
  overrides: Record<string, unknown> = {},
  request: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  const account = newAccount(overrides);
  const tab = browser(app, request);
  const started = await tab.post('/api/register', account);
  if (started.statusCode !== 202) throw new Error(`sign-up failed: ${started.statusCode} ${started.body}`);
  const { phoneNumber } = started.json<{ phoneNumber: string }>();
  const code = await lastCodeTo(app, phoneNumber);
  const res = await tab.post('/api/register/verify', { phoneNumber, code });
  if (res.statusCode !== 201) throw new Error(`sign-up code failed: ${res.statusCode} ${res.body}`);
  let user = res.json<{ id: number; isPrivileged: boolean; email: string; phoneNumber: string }>();
  if (staffEmails.get(app)?.includes(String(account.email).toLowerCase())) {
    await setStaff(app.ctx.db, String(account.email), true);
    user = { ...user, isPrivileged: true };
  }
  return { account, user, cookie: sessionCookie(res), response: res };
}
