import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { and, eq } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import * as schema from '../src/db/schema';
import { loops, members, messages, users } from '../src/db/schema';
import { LOOP_WIDE_KINDS, messageMayBeSent } from '../src/messaging/recipients';
import { createEmptyPostgresDatabase, TEST_DATABASE_URL } from './helpers/database';

/**
 * A migration run on a database that already holds rows: the migrations up to the one before it,
 * rows as the older code wrote them, then the rest of the migrations (as at the next start).
 */
const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A copy of the migrations folder whose journal ends just before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-migrations-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at, `migration ${tag}`).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return dir;
}

/** An empty database (PGlite, or a new one on TEST_DATABASE_URL) and a way to migrate it from a folder. */
async function emptyDatabase(): Promise<{ db: Db; migrate: (folder: string) => Promise<void> }> {
  if (!TEST_DATABASE_URL) {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    cleanups.push(() => pglite.close());
    const db = drizzlePglite(pglite, { schema });
    return { db: db as unknown as Db, migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }) };
  }
  const empty = await createEmptyPostgresDatabase(TEST_DATABASE_URL);
  const pool = new pg.Pool({ connectionString: empty.url, max: 2 });
  cleanups.push(async () => {
    await pool.end();
    await empty.drop();
  });
  const db = drizzlePg(pool, { schema });
  return { db: db as unknown as Db, migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }) };
}

describe('migration 0012: the group message kind', () => {
  it("turns a queued 'bulk' text into 'group_message', still a Loop-wide text; its key stays", async () => {
    const { db, migrate } = await emptyDatabase();
    await migrate(migrationsBefore('0012_group_message_kind'));

    const [creator] = await db.insert(users).values({ firstName: 'Ada', lastName: 'Creator', phoneNumber: '+14155550161' }).returning();
    const [member] = await db.insert(users).values({ firstName: 'Ben', lastName: 'Member', phoneNumber: '+14155550162' }).returning();
    const [loop] = await db.insert(loops).values({ name: 'Old Loop', creatorId: creator!.id }).returning();
    await db.insert(members).values({ loopId: loop!.id, userId: member!.id, status: 'active' });
    const [old] = await db
      .insert(messages)
      .values({
        direction: 'outbound',
        channel: 'sms',
        kind: 'bulk',
        toAddress: member!.phoneNumber,
        fromAddress: '',
        body: 'Family dinner moved to 7pm!',
        status: 'queued',
        idempotencyKey: `bulk:${loop!.id}:oldtoken0000:1`,
        loopId: loop!.id,
        userId: member!.id,
      })
      .returning();

    await migrate(MIGRATIONS);

    const [row] = await db.select().from(messages).where(eq(messages.id, old!.id));
    expect(row).toMatchObject({ kind: 'group_message', idempotencyKey: `bulk:${loop!.id}:oldtoken0000:1`, status: 'queued' });
    expect(LOOP_WIDE_KINDS).toContain(row!.kind);
    const sendable = async () =>
      (
        await db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.id, old!.id), messageMayBeSent()))
      ).length;
    expect(await sendable()).toBe(1);
    // Loop-wide: a paused Loop texts nobody, the old group message included.
    await db.update(loops).set({ paused: true }).where(eq(loops.id, loop!.id));
    expect(await sendable()).toBe(0);
    expect(await db.select().from(messages).where(eq(messages.kind, 'bulk'))).toEqual([]);
  });
});
