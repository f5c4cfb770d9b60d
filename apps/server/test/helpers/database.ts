import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsFolder = path.join(here, '../../src/db/migrations');
/** Made once per machine and reused until a migration or PGlite changes (the name is their hash). */
export const TEST_CACHE_DIR = path.join(here, '../../../../node_modules/.cache/loop-test');

/** The real PostgreSQL server to test against, when set; else tests use in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  database: Database;
  url: string | undefined;
  drop: () => Promise<void>;
}

/** Every file under `dir`, sorted, for hashing. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

let template: Promise<Blob> | undefined;

/**
 * A migrated, empty in-memory PGlite as a data folder (PGlite's dumpDataDir), made once and kept
 * in TEST_CACHE_DIR under the hash of the migrations and the PGlite version: migrating takes
 * seconds, loading this a fraction of one (decision 0046). The test run's globalSetup makes it
 * before the workers start; a worker that finds none makes it too (written then renamed, so a
 * reader never sees half a file).
 */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const hash = createHash('sha256');
    const pglite = JSON.parse(readFileSync(path.join(here, '../../../../node_modules/@electric-sql/pglite/package.json'), 'utf8'));
    hash.update(`pglite ${pglite.version}\0`);
    for (const file of filesUnder(migrationsFolder)) hash.update(`${path.relative(migrationsFolder, file)}\0`).update(readFileSync(file));
    const file = path.join(TEST_CACHE_DIR, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      const database = await openDatabase({});
      if (database.kind !== 'pglite') throw new Error('expected PGlite');
      const dump = await database.pglite.dumpDataDir('none');
      await database.close();
      const bytes = new Uint8Array(await dump.arrayBuffer());
      mkdirSync(TEST_CACHE_DIR, { recursive: true });
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      return new Blob([bytes]);
    }
  })();
  return template;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite (loaded from the migrated
 * template), or a new database on the TEST_DATABASE_URL server that is dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({ template: await pgliteTemplate() });
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
