import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../../src/cli/admin';
import { loadConfig } from '../../../src/config';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { PHONE_CODE } from '../../../src/services/phone-codes/phone-code-policy';
import { browser, createTestApp, newAccount, sessionCookie, signUp, type TestContext } from '../../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../../helpers/fake-twilio';

let t: TestContext;
let fake: FakeTwilio;
const BOSS_PHONE = '+14155550199';
beforeAll(async () => {
  fake = await startFakeTwilio();
  // The docs' own example address: listing it once made its first registrant staff.
  t = await createTestApp(twilioEnv(fake, { ADMIN_PHONES: '+1 (415) 555-0199' }));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The code in the last text the fake Twilio was asked to send to a phone (the real SDK's request). */
async function codeFromTwilio(phoneNumber: string): Promise<string> {
  await sweepUntilIdle(t.app.ctx);
  const sent = fake.sent.filter((m) => m.params.To === phoneNumber).at(-1);
  const code = /\b(\d{6})\b/.exec(String(sent?.params.Body ?? ''))?.[1];
  if (!code) throw new Error(`Twilio sent no code to ${phoneNumber}`);
  return code;
}

describe('staff are granted, never claimed (decision 0013)', () => {
  it('an address can no longer be claimed: ADMIN_EMAILS stops the server at start', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(40), ADMIN_EMAILS: 'boss@corp.example' })).toThrow(
      /ADMIN_EMAILS is no longer read/,
    );
  });

  it('ADMIN_PHONES makes the holder staff once the texted code checks out, and nobody who only typed the phone', async () => {
    const squatter = newAccount({ phoneNumber: BOSS_PHONE, email: 'BOSS@corp.example' });
    const squatterTab = browser(t.app);
    expect((await squatterTab.post('/api/register', squatter)).statusCode).toBe(202);
    // Without the code nothing exists, staff or not; guessing spends the code.
    for (let i = 0; i < PHONE_CODE.maxTries; i++) {
      const guess = await squatterTab.post('/api/register/verify', { phoneNumber: BOSS_PHONE, code: String(100000 + i) });
      if (guess.statusCode === 201) throw new Error('a guessed code happened to be right: run again');
      expect(guess.statusCode).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'boss@corp.example', password: squatter.password } }))
        .statusCode,
    ).toBe(401);

    // The holder signs up in their own browser and reads the code Twilio delivered.
    const holderTab = browser(t.app);
    const holder = newAccount({ phoneNumber: BOSS_PHONE, email: 'real.boss@corp.example' });
    expect((await holderTab.post('/api/register', holder)).statusCode).toBe(202);
    const res = await holderTab.post('/api/register/verify', { phoneNumber: BOSS_PHONE, code: await codeFromTwilio(BOSS_PHONE) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ phoneNumber: BOSS_PHONE, email: 'real.boss@corp.example', isPrivileged: true });
    expect((await t.app.inject({ url: '/api/admin/stats', headers: { cookie: sessionCookie(res) } })).statusCode).toBe(200);
  });

  it('leaves everyone else without staff rights', async () => {
    const { user } = await signUp(t.app, { email: 'boss@example.com' });
    expect(user.isPrivileged).toBe(false);
  });
});

describe('npm run admin', () => {
  it('grants and revokes staff rights and says what it did', async () => {
    const { account, cookie } = await signUp(t.app, { email: 'helper@example.com' });
    const db = t.testDb.database.db;

    expect(await runAdminCommand(db, ['grant', 'Helper@Example.com'])).toEqual({
      output: 'helper@example.com is now staff (isPrivileged).',
      code: 0,
    });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().isPrivileged).toBe(true);
    expect((await runAdminCommand(db, ['grant', account.email])).output).toBe(
      'helper@example.com already has staff rights: nothing changed.',
    );

    expect(await runAdminCommand(db, ['revoke', account.email])).toEqual({
      output: 'helper@example.com is no longer staff.',
      code: 0,
    });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().isPrivileged).toBe(false);
  });

  it('explains an unknown email and bad usage', async () => {
    const db = t.testDb.database.db;
    expect(await runAdminCommand(db, ['grant', 'ghost@example.com'])).toEqual({
      output: 'No account has the email ghost@example.com. The person must sign up first.',
      code: 1,
    });
    expect((await runAdminCommand(db, ['promote', 'x@example.com'])).code).toBe(2);
    expect((await runAdminCommand(db, [])).output).toMatch(/^Usage: npm run admin -- grant <email>/);
  });
});
