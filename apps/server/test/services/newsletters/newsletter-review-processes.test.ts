import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, newsletters, updates, users } from '../../../src/db/schema';
import { MINUTE_MS } from '../../../src/lib/clock';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../../helpers/fake-twilio';
import { schedulerFixtureEnv, startFixtureProcess, type FixtureProcess } from '../../helpers/fixture-process';
import { createLoop, createPerson } from '../../helpers/messaging';

/**
 * The owner's review (decision 0040) across two server processes on one PostgreSQL database:
 * each owner's preview text, each last call and each newsletter goes exactly once, approval-first
 * Loops never send an unapproved draft, and automatic ones send after the owner's preview.
 * Counted at the fake Twilio server. Needs TEST_DATABASE_URL (PGlite is one process).
 */
const START = new Date('2026-09-11T00:00:00Z'); // a Friday; the newsletters go Sunday 13th, 18:00 UTC
const SEND_AT = new Date('2026-09-13T18:00:00Z');
const STEP = 30 * MINUTE_MS;

describe.skipIf(!TEST_DATABASE_URL)('scheduled newsletters across processes', () => {
  let testDb: TestDatabase;
  let fake: FakeTwilio;
  let env: Record<string, string>;
  const kinds = ['automatic', 'approved', 'unapproved'] as const;
  const owners = new Map<string, (typeof kinds)[number]>();
  const guests = new Map<string, (typeof kinds)[number]>();
  /** Members who sent the Loop's update: not silent, so no last call (decision 0043). */
  const posters = new Set<string>();
  const loopKinds = new Map<number, (typeof kinds)[number]>();

  beforeAll(async () => {
    [testDb, fake] = await Promise.all([createTestDatabase(), startFakeTwilio()]);
    env = schedulerFixtureEnv(twilioEnv(fake), testDb.url, 'review', { QUIET_HOURS: 'off', FIXTURE_NEWSLETTERS: 'send' });
    const db = testDb.database.db;
    for (let i = 0; i < 9; i++) {
      const kind = kinds[i % 3] ?? 'automatic';
      const people = [await createPerson(db), await createPerson(db), await createPerson(db)];
      await db.update(users).set({ phoneTimeZone: '' });
      const loop = await createLoop(db, { name: `Loop ${i}`, memberIds: people.map((p) => p.id) });
      await db
        .update(loops)
        .set({
          frequency: 'weekly',
          nextNewsletterAt: SEND_AT,
          newsletterReview: kind !== 'automatic',
          createdAt: new Date(START.getTime() - 86_400_000),
        })
        .where(eq(loops.id, loop.id));
      await db.insert(updates).values({ loopId: loop.id, userId: people[1]!.id, content: `News ${i}`, createdAt: START });
      owners.set(people[0]!.phoneNumber, kind);
      for (const p of people.slice(1)) guests.set(p.phoneNumber, kind);
      posters.add(people[1]!.phoneNumber);
      loopKinds.set(loop.id, kind);
    }
  });

  afterAll(async () => {
    await fake?.close();
    await testDb?.drop();
  });

  async function tickBoth(a: FixtureProcess, b: FixtureProcess, iso: string) {
    const done = Promise.all([a.waitFor(`done ${iso}`), b.waitFor(`done ${iso}`)]);
    a.send(`tick ${iso}`);
    b.send(`tick ${iso}`);
    await done;
  }

  it('two processes ticking the same days text each owner, last call and newsletter exactly once', async () => {
    const db = testDb.database.db;
    const [a, b] = await Promise.all([startFixtureProcess('scheduler-process.ts', env), startFixtureProcess('scheduler-process.ts', env)]);
    try {
      let approved = false;
      for (let t = START.getTime() + STEP; t <= START.getTime() + 4 * 24 * 60 * MINUTE_MS; t += STEP) {
        await tickBoth(a, b, new Date(t).toISOString());
        if (!approved && t >= SEND_AT.getTime() - 20 * 60 * MINUTE_MS) {
          // The owners of the "approved" Loops approve their drafts (as POST .../approve does).
          for (const [loopId, kind] of loopKinds) {
            if (kind !== 'approved') continue;
            const done = await db
              .update(newsletters)
              .set({ approvedAt: new Date(t) })
              .where(and(eq(newsletters.loopId, loopId), isNotNull(newsletters.sendAt)))
              .returning();
            expect(done).toHaveLength(1);
          }
          approved = true;
        }
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const bodiesTo = (phone: string) => fake.sent.filter((s) => String(s.params.To) === phone).map((s) => String(s.params.Body));
    const isLink = (body: string) => body.includes('newsletter is here!');
    for (const [phone, kind] of owners) {
      const bodies = bodiesTo(phone);
      const previews = bodies.filter((body) => body.startsWith('Your "Loop') && body.includes('goes out'));
      const lastCalls = bodies.filter((body) => body.includes('is waiting for your approval'));
      expect(previews, phone).toHaveLength(1);
      expect(lastCalls, phone).toHaveLength(kind === 'unapproved' ? 1 : 0);
      expect(bodies.filter(isLink), phone).toHaveLength(kind === 'unapproved' ? 0 : 1);
      // An automatic Loop's owner had their preview before the newsletter went.
      if (kind !== 'unapproved') expect(bodies.findIndex(isLink)).toBeGreaterThan(bodies.indexOf(previews[0]!));
    }
    for (const [phone, kind] of guests) {
      // Members who sent nothing get the day-before last call once (decision 0043), then the link.
      const bodies = bodiesTo(phone);
      const memberLastCalls = bodies.filter((body) => body.includes('Last call: the "Loop'));
      const lastCallCount = posters.has(phone) ? 0 : 1;
      expect(memberLastCalls, phone).toHaveLength(lastCallCount);
      expect(bodies.filter(isLink), phone).toHaveLength(kind === 'unapproved' ? 0 : 1);
      expect(bodies, phone).toHaveLength(lastCallCount + (kind === 'unapproved' ? 0 : 1));
    }
    const rows = await db.select().from(newsletters);
    expect(rows).toHaveLength(9);
    for (const row of rows) {
      expect(row.status, String(row.loopId)).toBe(loopKinds.get(row.loopId) === 'unapproved' ? 'draft' : 'sent');
      if (row.status === 'sent') expect(row.sentAt).toEqual(SEND_AT);
    }
  });
});
