import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, phoneCodes } from '../../src/db/schema';
import { newAccount, uniquePhone } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { faultDatabase, INBOUND_PATH, signedInbound, type FaultDatabase } from './helpers/fault-database';
import { startServer, stopAllServers } from '../helpers/server-process';
import { sleep, until } from './helpers/wait';

/**
 * docs/reliability.md, "The embedded database": one process per PGlite directory, and a process
 * killed with SIGKILL loses nothing it acknowledged. Runs on PGlite whatever TEST_DATABASE_URL says.
 */
const WRITERS = 6;

describe('the PGlite data directory', () => {
  let target: FaultDatabase;
  let fake: FakeTwilio;

  beforeAll(async () => {
    [target, fake] = await Promise.all([faultDatabase('pglite'), startFakeTwilio()]);
  });
  afterAll(async () => {
    await stopAllServers();
    await fake?.close();
    await target?.cleanup();
  });

  it('refuses a second process, and keeps every acknowledged write through a SIGKILL', { timeout: 150_000 }, async () => {
    const env = { ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }), ...target.env };
    const first = await startServer(env);

    // Writers acknowledge as fast as they can: webhooks (a stored text each) and sign-ups.
    const acked = { texts: [] as string[], emails: [] as string[] };
    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, i) => {
      while (writing) {
        try {
          // A few sign-ups (password hashing is slow on purpose), then texts like the others.
          if (i === 0 && acked.emails.length < 5) {
            const account = newAccount();
            const response = await fetch(`${first.url}/api/register`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(account),
            });
            // A sign-up's first step is durable as its code row (the account comes with the code).
            if (response.status === 202) acked.emails.push(account.phoneNumber);
          } else {
            const webhook = signedInbound(first.url, fake, { from: uniquePhone(), body: `Durable ${i}` });
            const response = await fetch(`${first.url}${INBOUND_PATH}`, { method: 'POST', headers: webhook.headers, body: webhook.body });
            if (response.status === 200) acked.texts.push(webhook.messageSid);
          }
        } catch {
          // The process is gone: whatever was not acknowledged may be lost.
        }
      }
    });
    let killed: Awaited<typeof first.exited>;
    let ackedTexts: string[];
    let ackedEmails: string[];
    try {
      // Meanwhile a second process on the same directory is refused at start.
      const second = await startServer(env, { waitForHealth: false });
      expect((await second.exited).code).toBe(1);
      expect(second.output()).toContain(
        `The data directory ${target.dataDir} is already in use by another Loop process (pid ${first.child.pid})`,
      );
      await until(() => acked.texts.length >= 200 && acked.emails.length >= 5, 'writes to be acknowledged', 60_000);
      first.child.kill('SIGKILL');
      killed = await first.exited;
      ackedTexts = [...acked.texts];
      ackedEmails = [...acked.emails];
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    expect(killed.signal).toBe('SIGKILL');

    // A new process takes over the directory its dead owner left locked, and starts.
    const again = await startServer(env);
    expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
    await sleep(500);
    await again.stop();
    expect((await again.exited).code).toBe(0);

    const found = await target.use(async (db) => ({
      texts: await db.select({ sid: messages.providerMessageId }).from(messages).where(inArray(messages.providerMessageId, ackedTexts)),
      users: await db.select({ email: phoneCodes.phoneNumber }).from(phoneCodes).where(inArray(phoneCodes.phoneNumber, ackedEmails)),
      inbound: await db.$count(messages, eq(messages.direction, 'inbound')),
    }));
    const storedTexts = new Set(found.texts.map((r) => r.sid));
    const storedEmails = new Set(found.users.map((r) => r.email));
    expect(
      ackedTexts.filter((sid) => !storedTexts.has(sid)),
      'acknowledged texts lost',
    ).toEqual([]);
    expect(
      ackedEmails.filter((email) => !storedEmails.has(email)),
      'acknowledged sign-ups lost',
    ).toEqual([]);
    console.log(
      `[faults] PGlite SIGKILL: second process refused; ${ackedTexts.length} webhooks and ${ackedEmails.length} sign-ups acknowledged before the kill, ` +
        `all found after restart (${found.inbound} texts stored in all, 0 lost)`,
    );
  });
});
