import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Clock } from '../../src/lib/clock';
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

export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    // Tests add many members to one phone; test/consent-limits.test.ts sets these low.
    LOOPS_PER_ACCOUNT_PER_HOUR: '100000',
    LOOPS_PER_ACCOUNT_PER_DAY: '100000',
    MEMBER_ADDS_PER_ACCOUNT_PER_HOUR: '100000',
    MEMBER_ADDS_PER_ACCOUNT_PER_DAY: '100000',
    INVITATIONS_PER_PHONE_PER_DAY: '100000',
    ...env,
  });
}

/** A real app on a fresh database. Close it in afterAll. */
export async function createTestApp(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<TestContext> {
  const testDb = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-test-'));
  const apps: TestApp[] = [];
  const rebuild = async (extra: Record<string, string> = {}) => {
    const app = await buildApp(testConfig(dataDir, { ...env, ...extra }), { database: testDb.database, ...options });
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

/** Registers an account and returns it with its cookie. */
export async function signUp(app: TestApp, overrides: Record<string, unknown> = {}) {
  const account = newAccount(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/register', payload: account });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  return { account, user: res.json<{ id: number; isPrivileged: boolean }>(), cookie: sessionCookie(res) };
}
