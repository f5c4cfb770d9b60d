import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: services accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type Database =
  | { kind: 'pglite'; db: Db; pglite: PGlite; close: () => Promise<void> }
  | { kind: 'postgres'; db: Db; pool: pg.Pool; close: () => Promise<void> };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Serializes migrations when several processes start on one PostgreSQL server at once. */
const MIGRATION_LOCK_KEY = 727_274_001;

// timestamptz and bigint come back as Date and number: ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** A folder for PGlite, or undefined for an in-memory database (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /**
   * A PGlite data folder to start from (PGlite's dumpDataDir), for an in-memory database:
   * tests load one migrated template instead of migrating each database. Migrations still run
   * after it, so a template that lacks a newer migration gets it.
   */
  template?: Blob | undefined;
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite, and applies the migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // While PostgreSQL is down or restarting, a request waits at most this long for a
      // connection, then fails with a 503 (app.ts); the pool reconnects by itself afterwards.
      connectionTimeoutMillis: 5000,
      // A server that vanished without closing the socket is noticed by TCP keepalive.
      keepAlive: true,
    });
    // A client that loses its server (restart, network, pg_terminate_backend: 57P01) must not
    // crash the process: the pool drops it and opens a new one for the next query. pg-pool
    // listens on the clients it holds idle, but takes its listener off a client while it is
    // checked out: one idle inside a transaction, between two statements, would emit 'error'
    // with nobody listening (an uncaught exception). Every client gets a listener of its own for
    // its whole life; its next query then fails (a 503, app.ts) and the pool discards it.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    } finally {
      client.release();
    }
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { kind: 'postgres', db, pool, close: () => pool.end() };
  }

  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  try {
    // pg_trgm: the trigram index of staff search (migration 0003); PGlite ships it as contrib.
    const extensions = { pg_trgm };
    const pglite = options.dataDir
      ? await PGlite.create(path.join(options.dataDir, 'pglite'), { extensions })
      : await PGlite.create({ extensions, ...(options.template ? { loadDataDir: options.template } : {}) });
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder });
    return {
      kind: 'pglite',
      db,
      pglite,
      close: async () => {
        try {
          await pglite.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** True when the database answers; used by the health check. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
