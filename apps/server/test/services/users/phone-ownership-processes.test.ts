import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newAccount } from '../../helpers/app';
import { startServer, stopAllServers } from '../../helpers/server-process';

/**
 * Phones proven by a texted code (decision 0013) on a real server process: sign-up's codes and passwords stay out of its logs. The
 * API-level phone-ownership tests are test/services/users/phone-ownership.test.ts; this one starts a process, so it
 * runs in `npm run test:slow` (decision 0046).
 */
describe('the real server', () => {
  afterAll(() => stopAllServers());

  it('logs no code or password at the most detailed level, and says at start that the simulator proves nothing', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-codes-'));
    try {
      const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'trace', DATABASE_URL: '', SESSION_SECRET: 'x'.repeat(40) });
      const account = newAccount();
      let cookie = '';
      const send = (url: string, body: unknown) =>
        fetch(`${server.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
      const started = await send('/api/register', account);
      expect(started.status).toBe(202);
      // The code works only in the browser that sent the form: carry its cookie.
      cookie = started.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const { simulatedText } = (await started.json()) as { simulatedText: string };
      const code = /\d{6}/.exec(simulatedText)?.[0] ?? '';
      expect(
        (await send('/api/register/verify', { phoneNumber: account.phoneNumber, code: '000000' === code ? '111111' : '000000' })).status,
      ).toBe(400);
      expect((await send('/api/register/verify', { phoneNumber: account.phoneNumber, code })).status).toBe(201);
      // The simulator "sends" the text in the background: wait until it did, so its logs are in.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.stop();
      const output = server.output();
      expect(output).toMatch(/Simulator mode proves nothing about who\s+holds a phone/);
      expect(output).toContain('Server listening');
      expect(output).not.toContain(code);
      expect(output).not.toContain(account.password);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
