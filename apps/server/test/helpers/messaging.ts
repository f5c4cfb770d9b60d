import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../src/db/client';
import { loops, media, members, messages, updates, users } from '../../src/db/schema';
import type { Clock } from '../../src/lib/clock';
import { createGroupMessage } from '../../src/services/group-messages/create-group-message';
import { createTestApp, uniquePhone, type TestContext } from './app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from './fake-twilio';

/** A person who only texts (no password), straight into the database. */
export async function createPerson(
  db: Db,
  input: {
    firstName?: string;
    phoneNumber?: string;
    messagingPreference?: 'sms' | 'whatsapp';
    isStaff?: boolean;
    /** A person who prefers WhatsApp chose it themselves (decision 0060), unless this is false. */
    whatsappOptedIn?: boolean;
  } = {},
) {
  const [user] = await db
    .insert(users)
    .values({
      firstName: input.firstName ?? 'Ada',
      lastName: 'Lovelace',
      phoneNumber: input.phoneNumber ?? uniquePhone(),
      messagingPreference: input.messagingPreference ?? 'sms',
      isStaff: input.isStaff ?? false,
      whatsappOptedInAt: input.messagingPreference === 'whatsapp' && input.whatsappOptedIn !== false ? new Date(0) : null,
    })
    .returning();
  if (!user) throw new Error('no user');
  return user;
}

/** A Loop with these members (the first is its creator), every one of them active (they said YES). */
export async function createLoop(db: Db, input: { name: string; memberIds: number[]; paused?: boolean; creatorId?: number }) {
  const creatorId = input.creatorId ?? input.memberIds[0];
  if (creatorId === undefined) throw new Error('a Loop needs a creator');
  const [loop] = await db
    .insert(loops)
    .values({ name: input.name, creatorId, paused: input.paused ?? false })
    .returning();
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
/** Real 8x8 images: the photo pipeline decodes every photo, so a fake one would be refused as damaged. */
export const JPEG = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKABiz//2Q==',
  'base64',
);
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4UaGBFTEMLQkAUtVaAUH78mEAAAAASUVORK5CYII=',
  'base64',
);

/** The app and fake Twilio of one test file: set in beforeAll, closed in afterAll. */
export interface FakeTwilioApp {
  readonly t: TestContext;
  readonly fake: FakeTwilio;
  readonly db: () => Db;
}

/**
 * Starts a fake Twilio and an app that sends through it before the file's tests, and stops both
 * after them. Read `t`, `fake` and `db()` inside tests and hooks, not at module level.
 */
export function useFakeTwilioApp(options: { clock?: Clock; env?: Record<string, string> } = {}): FakeTwilioApp {
  let t: TestContext | undefined;
  let fake: FakeTwilio | undefined;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await createTestApp(twilioEnv(fake, options.env), options);
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

/**
 * A group message to every member, sent now from the staff page (not limited) by staff who bear
 * the Loop creator's first name: its sender gets no copy, so the sender is not a member.
 */
export async function sendGroupMessage(db: Db, options: { loopId: number; message: string }): Promise<number> {
  const [loop] = await db.select({ creatorId: loops.creatorId }).from(loops).where(eq(loops.id, options.loopId));
  const [creator] = loop ? await db.select().from(users).where(eq(users.id, loop.creatorId)) : [];
  if (!creator) throw new Error(`no Loop ${options.loopId}`);
  const staff = await createPerson(db, { firstName: creator.firstName, isStaff: true });
  const { queued } = await createGroupMessage(db, {
    loopId: options.loopId,
    sender: staff,
    message: options.message,
    sendAt: null,
    now: new Date(),
    limits: [],
    secret: 'test',
  });
  return queued;
}
