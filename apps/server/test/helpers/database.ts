import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client';

/** The real PostgreSQL server to test against, when set; else tests use in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  database: Database;
  url: string | undefined;
  drop: () => Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on the
 * TEST_DATABASE_URL server that is dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({});
    return { database, url: undefined, drop: () => database.close() };
  }
  const empty = await createEmptyPostgresDatabase(TEST_DATABASE_URL);
  const database = await openDatabase({ databaseUrl: empty.url, poolSize: 5 });
  return {
    database,
    url: empty.url,
    drop: async () => {
      await database.close();
      await empty.drop();
    },
  };
}

/** A new, empty database on the server at `serverUrl`, not migrated; `drop` removes it (close its connections first). */
export async function createEmptyPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `loop_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
