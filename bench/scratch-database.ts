import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ScratchDatabase {
  /** The database's name: loop_bench_ and eight hex digits for a new one. */
  name: string;
  /** Its URL: the server's URL with the database's name as the path. */
  url: string;
  /** A new empty temporary folder, for the server's DATA_DIR. */
  dataDir: string;
  /** Drops the database WITH (FORCE) (unless it was reused) and removes dataDir. */
  drop: () => Promise<void>;
}

/**
 * A new database on the PostgreSQL server at postgresUrl, and a temporary data folder, for one
 * benchmark run; call drop() in a finally block. Each step opens its own short connection to
 * postgresUrl, so the drop works even when the bench restarted PostgreSQL meanwhile.
 * reuse: the URL of an existing database to use instead (kept: drop() removes only dataDir).
 */
export async function createScratchDatabase(postgresUrl: string, options: { reuse?: string } = {}): Promise<ScratchDatabase> {
  const url = new URL(options.reuse ?? postgresUrl);
  if (!options.reuse) {
    url.pathname = `/loop_bench_${randomBytes(4).toString('hex')}`;
    await onServer(postgresUrl, `CREATE DATABASE ${url.pathname.slice(1)}`);
  }
  const name = url.pathname.slice(1);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  return {
    name,
    url: url.toString(),
    dataDir,
    drop: async () => {
      try {
        if (!options.reuse) await onServer(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

async function onServer(postgresUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
