import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../src/db/client';
import { loops, media, members, messages, updates, users } from '../../src/db/schema';
import type { Clock } from '../../src/lib/clock';
import { createTestApp, uniquePhone, type TestContext } from './app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from './fake-twilio';

/** A person who only texts (no password), straight into the database. */
export async function createPerson(
  db: Db,
  input: { firstName?: string; phoneNumber?: string; messagingPreference?: 'sms' | 'whatsapp'; isPrivileged?: boolean } = {},
) {
  const [user] = await db
    .insert(users)
    .values({
      firstName: input.firstName ?? 'Ada',
      lastName: 'Lovelace',
      phoneNumber: input.phoneNumber ?? uniquePhone(),
      messagingPreference: input.messagingPreference ?? 'sms',
      isPrivileged: input.isPrivileged ?? false,
    })
    .returning();
  if (!user) throw new Error('no user');
  return user;
}

/** A Loop with these members (the first is its creator), every one of them active (they said YES). */
export async function createLoop(db: Db, input: { name: string; memberIds: number[]; paused?: boolean; creatorId?: number }) {
  const creatorId = input.creatorId ?? input.memberIds[0];
  if (creatorId === undefined) throw new Error('a Loop needs a creator');
  const [loop] = await db.insert(loops).values({ name: input.name, creatorId, paused: input.paused ?? false }).returning();
  if (!loop) throw new Error('no loop');
  for (const userId of input.memberIds) await db.insert(members).values({ loopId: loop.id, userId, status: 'active' });
  return loop;
}

export async function updatesOf(db: Db, loopId: number) {
  const rows = await db.select().from(updates).where(eq(updates.loopId, loopId)).orderBy(updates.id);
  return Promise.all(
    rows.map(async (u) => ({ ...u, media: await db.select().from(media).where(eq(media.updateId, u.id)).orderBy(media.position) })),
  );
}

/** Outbound texts to a phone, oldest first. */
export async function textsTo(db: Db, phoneNumber: string) {
  return db.select().from(messages).where(eq(messages.toAddress, phoneNumber)).orderBy(messages.id);
}

/** A mutable clock for tests: `clock.set(...)`, `clock.advance(ms)`. */
export function testClock(start = new Date('2026-03-02T10:00:00Z')) {
  let now = start;
  const clock = () => now;
  return Object.assign(clock, {
    set: (date: Date) => {
      now = date;
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  });
}

/** Tiny but real image bytes: what the type sniffer accepts. */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('fake jpeg body')]);
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('fake png body')]);

/** The app and fake Twilio of one test file: set in beforeAll, closed in afterAll. */
export interface FakeTwilioApp {
  readonly t: TestContext;
  readonly fake: FakeTwilio;
  db(): Db;
}

/**
 * Starts a fake Twilio and an app that sends through it before the file's tests, and stops both
 * after them. Read `t`, `fake` and `db()` inside tests and hooks, not at module level.
 */
export function useFakeTwilioApp(options: { clock?: Clock } = {}): FakeTwilioApp {
  let t: TestContext | undefined;
  let fake: FakeTwilio | undefined;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await createTestApp(twilioEnv(fake), options);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useFakeTwilioApp: read t and fake inside tests, after beforeAll');
    return value;
  };
  return {
    get t() {
      return started(t);
    },
    get fake() {
      return started(fake);
    },
    db: () => started(t).testDb.database.db,
  };
}
