import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueLoopTexts } from '../../src/messaging/outbox';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio, type SentMessage } from '../helpers/fake-twilio';
import { createLoop, createPerson } from '../helpers/messaging';
import { startServer, stopAllServers } from '../helpers/server-process';

/**
 * Decision 0017: pacing lives in the database, so two real server processes on one PostgreSQL
 * database together send one sender's texts at SEND_RATE_PER_SECOND, not twice that. Each process
 * talks to a fake Twilio of its own (the same account in life), so the test sees that both sent;
 * both fakes record when each text arrived on this process's clock. Needs PostgreSQL
 * (TEST_DATABASE_URL): PGlite is one process.
 */
const RATE = 10;
const INTERVAL_MS = 1000 / RATE;
/**
 * More than the first process to poll holds in its first second (a first claim of 10, a batch of 50
 * at once, 50 more a few texts later: the texts channel's sweep), so the second process, polling within that
 * second, finds texts left whichever polls first.
 */
const TEXTS = 150;
/**
 * How much closer than the interval two texts may arrive: a slot is never early, but each text is
 * late by its own trip (event loop, the send-time check, HTTP).
 */
const JITTER_MS = 40;
/**
 * On a shared two-core machine any process may stall for a few hundred milliseconds, this test's own
 * fake Twilio too: the texts that arrive meanwhile are recorded together when it resumes. So a few
 * gaps may be short; without shared pacing about half of them are.
 */
const SHORT_GAPS_ALLOWED = 0.1;

describe.skipIf(!TEST_DATABASE_URL)('pacing shared by server processes', () => {
  let testDb: TestDatabase;
  let fakes: FakeTwilio[];
  let dataDirs: string[];

  beforeAll(async () => {
    [testDb, ...fakes] = await Promise.all([createTestDatabase(), startFakeTwilio(), startFakeTwilio()]);
    dataDirs = fakes.map(() => mkdtempSync(path.join(tmpdir(), 'loop-pacing-')));
  });

  afterAll(async () => {
    await stopAllServers();
    await Promise.all(fakes.map((fake) => fake.close()));
    await testDb?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('two processes together send a sender’s texts at its configured rate, one interval apart', { timeout: 120_000 }, async () => {
    const servers = await Promise.all(
      fakes.map((fake, index) =>
        startServer({
          ...twilioEnv(fake, { SEND_RATE_PER_SECOND: String(RATE) }),
          DATABASE_URL: testDb.url ?? '',
          DATA_DIR: dataDirs[index] ?? '',
        }),
      ),
    );
    try {
      // Queued once both processes are polling: either may claim them.
      const db = testDb.database.db;
      const people = [];
      for (let i = 0; i < TEXTS; i++) people.push(await createPerson(db));
      const loop = await createLoop(db, { name: 'Paced', memberIds: people.map((p) => p.id) });
      const queued = await db.transaction((tx) =>
        enqueueLoopTexts(tx, { loopId: loop.id, kind: 'reminder', body: 'Time to share your news!', keyPrefix: `paced:${loop.id}` }),
      );
      expect(queued).toBe(TEXTS);
      const sent = () => fakes.flatMap((fake) => fake.sent);
      const deadline = Date.now() + 90_000;
      while (sent().length < TEXTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));

      const all: SentMessage[] = sent();
      expect(all).toHaveLength(TEXTS);
      expect(new Set(all.map((s) => s.params.To)).size).toBe(TEXTS);
      expect(new Set(all.map((s) => s.params.From))).toEqual(new Set(['+15005550006']));
      // Both processes sent part of them.
      for (const fake of fakes) expect(fake.sent.length).toBeGreaterThan(0);

      const times = all.map((s) => s.at).sort((x, y) => x - y);
      const spanMs = (times.at(-1) ?? 0) - (times[0] ?? 0);
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
      const short = gaps.filter((gap) => gap < INTERVAL_MS - JITTER_MS).length;
      const median = [...gaps].sort((x, y) => x - y)[Math.floor(gaps.length / 2)] ?? 0;
      const report = `${TEXTS} texts (${fakes.map((f) => f.sent.length).join(' + ')}) over ${Math.round(spanMs)} ms, median gap ${Math.round(median)} ms, ${short} gaps under ${INTERVAL_MS - JITTER_MS} ms`;
      // N texts at rate r take (N-1)/r seconds: the achieved rate is within 5% of the configured one...
      const achieved = ((TEXTS - 1) * 1000) / spanMs;
      expect(achieved, report).toBeGreaterThanOrEqual(RATE * 0.95);
      expect(achieved, report).toBeLessThanOrEqual(RATE * 1.05);
      // ...one interval apart: the typical gap is the interval, and texts closer than the interval
      // (less the jitter) are the rare ones this busy machine bunched. Two processes pacing alone
      // would each send at the full rate: about half the gaps would be short, the median too.
      expect(Math.abs(median - INTERVAL_MS), report).toBeLessThanOrEqual(INTERVAL_MS * 0.1);
      expect(short, report).toBeLessThanOrEqual(Math.ceil(gaps.length * SHORT_GAPS_ALLOWED));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
});
