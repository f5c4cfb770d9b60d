import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { invites, loops, media, members, newsletters, updates, users } from '../../src/db/schema';
import { hashPassword } from '../../src/lib/passwords';
import { randomToken } from '../../src/lib/tokens';
import { createSession } from '../../src/services/sessions/create-session';
import { createMediaStorage } from '../../src/storage/create-storage';
import { createTestApp, uniquePhone, type TestApp, type TestContext } from '../helpers/app';
import { JPEG } from '../helpers/messaging';

/** Everyone who can call the API: signed out, a made-up session cookie, and four signed-in people. */
export const ROLES = ['signedOut', 'forged', 'stranger', 'member', 'owner', 'staff'] as const;
export type Role = (typeof ROLES)[number];
type Person = Exclude<Role, 'signedOut' | 'forged'>;

/** The tables whose row counts must agree with every answer. */
export const TABLES = [
  'users',
  'sessions',
  'loops',
  'members',
  'invites',
  'messages',
  'updates',
  'media',
  'newsletters',
  'phone_opt_outs',
] as const;
export type Table = (typeof TABLES)[number];
export type Counts = Record<Table, number>;

export const PASSWORD = 'fuzzing is fun 123';
const LONG_AGO = new Date('2020-01-01T00:00:00Z');

/**
 * Symbolic things a fuzz case can point at; resolved to real ids and codes when the case runs,
 * so a case that deleted one (a 2xx DELETE) is followed by a repaired world.
 * ownLoop: the owner's Loop, where `member` is a member. otherLoop: the stranger's Loop.
 */
export interface Refs {
  ownLoop: number;
  otherLoop: number;
  memberOfOwn: number;
  creatorOfOwn: number;
  memberOfOther: number;
  ownerUpdate: number;
  memberUpdate: number;
  otherUpdate: number;
  draft: number;
  sent: number;
  otherDraft: number;
  invite: string;
  expiredInvite: string;
  otherInvite: string;
  mediaKey: string;
  draftUrlId: string;
  sentUrlId: string;
}
export type Ref = keyof Refs;

export interface World {
  t: TestContext;
  app: TestApp;
  db: Db;
  people: Record<Person, { id: number; email: string; phoneNumber: string }>;
  refs: Refs;
  /** The Cookie header for a role; `fresh` starts a new session (for routes that end or rotate it). */
  cookie: (role: Role, fresh?: boolean) => Promise<string | undefined>;
  /** Re-creates whatever a successful DELETE, send or removal took away. */
  repair: () => Promise<void>;
  /** A sent newsletter, then one new update, in both Loops: the next sneak peek has one update to show. */
  addUpdates: () => Promise<void>;
  /** Row counts of TABLES, kept by triggers: cheap enough to read around every case. */
  counts: () => Promise<Counts>;
  /** The same, counted from the tables themselves. */
  exactCounts: () => Promise<Counts>;
  close: () => Promise<void>;
}

/** A fresh app and database with two Loops, members, updates with a photo, newsletters and invites. */
export async function createWorld(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp(env);
  const db = t.testDb.database.db;
  const config = t.app.ctx.config;
  const storage = createMediaStorage(config);
  const passwordHash = await hashPassword(PASSWORD);
  const now = () => new Date();

  const person = async (name: Person) => {
    const [row] = await db
      .insert(users)
      .values({
        email: `${name}-${randomToken(6).toLowerCase()}@example.com`,
        passwordHash,
        firstName: name,
        lastName: 'Fuzz',
        phoneNumber: uniquePhone(),
        isStaff: name === 'staff',
        // Account holders proved their phones at sign-up: they may answer their invitations.
        phoneProvenAt: new Date(),
      })
      .returning();
    if (!row) throw new Error('no user');
    return { id: row.id, email: row.email ?? '', phoneNumber: row.phoneNumber };
  };
  const people = {
    owner: await person('owner'),
    member: await person('member'),
    stranger: await person('stranger'),
    staff: await person('staff'),
  };

  const sessions = new Map<Role, string>();
  const cookie = async (role: Role, fresh = false) => {
    if (role === 'signedOut') return undefined;
    if (role === 'forged') return `loop_session=${randomToken()}`;
    let token = fresh ? undefined : sessions.get(role);
    if (!token) {
      token = (await createSession(db, { userId: people[role].id, secret: config.SESSION_SECRET, now: now() })).token;
      if (!fresh) sessions.set(role, token);
    }
    return `loop_session=${token}`;
  };

  const insertLoop = async (creatorId: number, name: string) => {
    const [loop] = await db
      .insert(loops)
      .values({ name, creatorId, vibe: ['family'], reminderSchedule: [{ day: 'monday', time: '09:00' }] })
      .returning();
    if (!loop) throw new Error('no loop');
    return loop.id;
  };
  const insertMember = async (loopId: number, userId: number) => {
    const [row] = await db.insert(members).values({ loopId, userId, status: 'active' }).onConflictDoNothing().returning();
    if (row) return row.id;
    const [existing] = await db
      .select()
      .from(members)
      .where(and(eq(members.loopId, loopId), eq(members.userId, userId)));
    if (!existing) throw new Error('no member');
    return existing.id;
  };
  const insertUpdate = async (loopId: number, userId: number, photo = false) => {
    const [row] = await db.insert(updates).values({ loopId, userId, content: 'A fuzzy update' }).returning();
    if (!row) throw new Error('no update');
    if (photo) {
      const key = await storage.put(JPEG);
      await db.insert(media).values({
        updateId: row.id,
        storageKey: key,
        contentType: 'image/jpeg',
        bytes: JPEG.length,
        width: 8,
        height: 8,
        variants: [{ width: 8, height: 8, key, bytes: JPEG.length }],
      });
      refs.mediaKey = key;
    }
    return row.id;
  };
  const insertNewsletter = async (loopId: number, status: 'draft' | 'sent', periodEnd = LONG_AGO) => {
    const [row] = await db
      .insert(newsletters)
      // Periods that end long ago: the seeded updates are new, so a sneak peek has something to show.
      .values({
        loopId,
        status,
        urlId: randomToken(),
        title: 'Fuzz news',
        content: '# News\n\nAll is well.',
        periodEnd,
        sentAt: status === 'sent' ? periodEnd : null,
      })
      .returning();
    if (!row) throw new Error('no newsletter');
    return row;
  };
  const insertInvite = async (loopId: number, expired = false) => {
    const code = randomToken(24);
    const expiresAt = new Date(Date.now() + (expired ? -1 : 1) * 7 * 86_400_000);
    await db.insert(invites).values({ loopId, code, createdById: null, expiresAt });
    return code;
  };

  const refs = {} as Refs;
  const seedOwnLoop = async () => {
    refs.ownLoop = await insertLoop(people.owner.id, 'The Fuzzers');
    refs.creatorOfOwn = await insertMember(refs.ownLoop, people.owner.id);
    refs.memberOfOwn = await insertMember(refs.ownLoop, people.member.id);
    refs.ownerUpdate = await insertUpdate(refs.ownLoop, people.owner.id, true);
    refs.memberUpdate = await insertUpdate(refs.ownLoop, people.member.id);
    const draft = await insertNewsletter(refs.ownLoop, 'draft');
    const sent = await insertNewsletter(refs.ownLoop, 'sent');
    Object.assign(refs, { draft: draft.id, draftUrlId: draft.urlId, sent: sent.id, sentUrlId: sent.urlId });
    refs.invite = await insertInvite(refs.ownLoop);
    refs.expiredInvite = await insertInvite(refs.ownLoop, true);
  };
  const seedOtherLoop = async () => {
    refs.otherLoop = await insertLoop(people.stranger.id, 'Strangers');
    await insertMember(refs.otherLoop, people.stranger.id);
    refs.otherUpdate = await insertUpdate(refs.otherLoop, people.stranger.id);
    refs.otherDraft = (await insertNewsletter(refs.otherLoop, 'draft')).id;
    refs.otherInvite = await insertInvite(refs.otherLoop);
    const [extra] = await db.insert(users).values({ firstName: 'Other', lastName: 'Member', phoneNumber: uniquePhone() }).returning();
    refs.memberOfOther = await insertMember(refs.otherLoop, extra?.id ?? people.stranger.id);
  };
  await seedOwnLoop();
  await seedOtherLoop();
  // Sessions now, not at first use: a case must not see the harness's own writes.
  for (const role of ROLES) await cookie(role);

  const exists = async (table: 'loops' | 'members' | 'updates', id: number) => {
    const t = { loops, members, updates }[table];
    const rows = await db.select({ id: t.id }).from(t).where(eq(t.id, id));
    return rows.length > 0;
  };
  const repair = async () => {
    if (!(await exists('loops', refs.ownLoop))) await seedOwnLoop();
    if (!(await exists('loops', refs.otherLoop))) await seedOtherLoop();
    if (!(await exists('members', refs.memberOfOwn))) refs.memberOfOwn = await insertMember(refs.ownLoop, people.member.id);
    if (!(await exists('members', refs.memberOfOther))) {
      const [extra] = await db.insert(users).values({ firstName: 'Other', lastName: 'Member', phoneNumber: uniquePhone() }).returning();
      refs.memberOfOther = await insertMember(refs.otherLoop, extra?.id ?? people.stranger.id);
    }
    if (!(await exists('updates', refs.ownerUpdate))) refs.ownerUpdate = await insertUpdate(refs.ownLoop, people.owner.id, true);
    if (!(await exists('updates', refs.memberUpdate))) refs.memberUpdate = await insertUpdate(refs.ownLoop, people.member.id);
    if (!(await exists('updates', refs.otherUpdate))) refs.otherUpdate = await insertUpdate(refs.otherLoop, people.stranger.id);
    const [draft] = await db.select({ status: newsletters.status }).from(newsletters).where(eq(newsletters.id, refs.draft));
    if (draft?.status !== 'draft') {
      const row = await insertNewsletter(refs.ownLoop, 'draft');
      Object.assign(refs, { draft: row.id, draftUrlId: row.urlId });
    }
    const [otherDraft] = await db.select({ status: newsletters.status }).from(newsletters).where(eq(newsletters.id, refs.otherDraft));
    if (otherDraft?.status !== 'draft') refs.otherDraft = (await insertNewsletter(refs.otherLoop, 'draft')).id;
  };

  // Row counts kept by triggers in one row, so each case reads them with one cheap query;
  // exactCounts() counts the tables themselves (the harness checks the two agree after each route).
  const exactCounts = async (): Promise<Counts> => {
    const result = await db.execute(sql.raw(`select ${TABLES.map((name) => `(select count(*) from ${name})::int as ${name}`).join(', ')}`));
    return readCounts(result);
  };
  await installCountTriggers(db);
  const counts = async (): Promise<Counts> => readCounts(await db.execute(sql.raw('select * from fuzz_row_counts')));

  const addUpdates = async () => {
    const periodEnd = new Date(Date.now() - 1000);
    await insertNewsletter(refs.ownLoop, 'sent', periodEnd);
    await insertNewsletter(refs.otherLoop, 'sent', periodEnd);
    await insertUpdate(refs.ownLoop, people.member.id);
    await insertUpdate(refs.otherLoop, people.stranger.id);
  };

  return { t, app: t.app, db, people, refs, cookie, repair, addUpdates, counts, exactCounts, close: () => t.close() };
}

function readCounts(result: unknown): Counts {
  const row = (result as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  return Object.fromEntries(TABLES.map((name) => [name, Number(row[name])])) as Counts;
}

/** A one-row table of row counts, kept by row triggers on every counted table (test databases only). */
async function installCountTriggers(db: Db): Promise<void> {
  const statements = [
    `create table fuzz_row_counts as select ${TABLES.map((name) => `(select count(*) from ${name})::int as ${name}`).join(', ')}`,
    `create function fuzz_count_rows() returns trigger language plpgsql as $$
     begin
       execute format('update fuzz_row_counts set %1$I = %1$I + $1', tg_table_name) using (case when tg_op = 'INSERT' then 1 else -1 end);
       return null;
     end $$`,
    ...TABLES.map(
      (name) => `create trigger fuzz_count_rows after insert or delete on ${name} for each row execute function fuzz_count_rows()`,
    ),
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}
