import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import * as schema from '../../src/db/schema';
import { loops, members, messages } from '../../src/db/schema';
import { LOOP_WIDE_KINDS, messageMayBeSent } from '../../src/messaging/recipients';
import { createEmptyPostgresDatabase, TEST_DATABASE_URL } from '../helpers/database';

/**
 * A migration run on a database that already holds rows: the migrations up to the one before it,
 * rows as the older code wrote them, then the rest of the migrations (as at the next start).
 */
const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/db/migrations');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs an insert written as older code wrote it (plain SQL: the schema file is today's) and returns its row. */
async function oldRow<T>(db: Db, query: SQL): Promise<T> {
  // execute<T>() needs T to be a Record, and T is any row type.
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  const [row] = result.rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

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

    // Written as the code of the time wrote them: columns later migrations add do not exist yet.
    const creator = await oldRow<{ id: number }>(
      db,
      sql`insert into users (first_name, last_name, phone_number) values ('Ada', 'Creator', '+14155550161') returning id`,
    );
    const member = await oldRow<{ id: number; phone_number: string }>(
      db,
      sql`insert into users (first_name, last_name, phone_number) values ('Ben', 'Member', '+14155550162') returning id, phone_number`,
    );
    const loop = await oldRow<{ id: number }>(
      db,
      sql`insert into loops (name, creator_id) values ('Old Loop', ${creator.id}) returning id`,
    );
    await db.execute(sql`insert into members (loop_id, user_id, status) values (${loop.id}, ${member.id}, 'active')`);
    const old = await oldRow<{ id: number }>(
      db,
      sql`insert into messages (direction, channel, kind, to_address, from_address, body, status, idempotency_key, loop_id, user_id)
        values ('outbound', 'sms', 'bulk', ${member.phone_number}, '', 'Family dinner moved to 7pm!', 'queued',
          ${`bulk:${loop.id}:oldtoken0000:1`}, ${loop.id}, ${member.id}) returning id`,
    );

    await migrate(MIGRATIONS);

    const [row] = await db.select().from(messages).where(eq(messages.id, old.id));
    expect(row).toMatchObject({ kind: 'group_message', idempotencyKey: `bulk:${loop.id}:oldtoken0000:1`, status: 'queued' });
    expect(LOOP_WIDE_KINDS).toContain(row!.kind);
    const sendable = async () =>
      (
        await db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.id, old.id), messageMayBeSent()))
      ).length;
    expect(await sendable()).toBe(1);
    // Loop-wide: a paused Loop texts nobody, the old group message included.
    await db.update(loops).set({ paused: true }).where(eq(loops.id, loop.id));
    expect(await sendable()).toBe(0);
    expect(await db.select().from(messages).where(eq(messages.kind, 'bulk'))).toEqual([]);
  });
});

describe('migration 0013: answers to invitations', () => {
  it('marks a pending membership whose phone never got an invitation as withheld, and no other', async () => {
    const { db, migrate } = await emptyDatabase();
    await migrate(migrationsBefore('0013_invitation_answers'));
    const owner = await oldRow<{ id: number }>(
      db,
      sql`insert into users (first_name, last_name, phone_number) values ('Ada', 'Owner', '+14155550171') returning id`,
    );
    const loop = await oldRow<{ id: number }>(db, sql`insert into loops (name, creator_id) values ('Old Loop', ${owner.id}) returning id`);
    const person = async (phone: string) =>
      (
        await oldRow<{ id: number }>(
          db,
          sql`insert into users (first_name, last_name, phone_number) values ('P', 'Q', ${phone}) returning id`,
        )
      ).id;
    const invited = await person('+14155550172');
    const optedOut = await person('+14155550173');
    const joined = await person('+14155550174');
    for (const [userId, status] of [
      [owner.id, 'active'],
      [invited, 'pending'],
      [optedOut, 'pending'],
      [joined, 'active'],
    ] as const) {
      await db.execute(sql`insert into members (loop_id, user_id, status, invited_at) values (${loop.id}, ${userId}, ${status}, now())`);
    }
    for (const userId of [invited, joined]) {
      await db.execute(sql`insert into messages (direction, channel, kind, to_address, from_address, body, status, idempotency_key, loop_id, user_id)
        values ('outbound', 'sms', 'invitation', '+1', '', 'Reply YES', 'sent', ${`invitation:${loop.id}:${userId}:1`}, ${loop.id}, ${userId})`);
    }

    await migrate(MIGRATIONS);

    const rows = await db
      .select({ userId: members.userId, withheld: members.invitationWithheld })
      .from(members)
      .where(eq(members.loopId, loop.id));
    expect(Object.fromEntries(rows.map((r) => [r.userId, r.withheld]))).toEqual({
      [owner.id]: false,
      [invited]: false,
      [optedOut]: true,
      [joined]: false,
    });
  });
});
