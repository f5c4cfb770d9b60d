import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';

/**
 * Keyset cursors of the admin lists (decision 0007): where a page ends, so the next page is read
 * from an index starting right after it instead of skipping `offset` rows. Opaque to clients:
 * base64url JSON of [list, page number, sort key, id].
 */
export interface PageCursor<K> {
  page: number;
  key: K;
  id: number;
}

export function encodeCursor<K>(list: string, cursor: PageCursor<K>): string {
  return Buffer.from(JSON.stringify([list, cursor.page, cursor.key, cursor.id])).toString('base64url');
}

/** The cursor, or a 400 when it is not one this list gave out (`parseKey` returns undefined for a bad key). */
export function decodeCursor<K>(list: string, text: string, parseKey: (key: unknown) => K | undefined): PageCursor<K> {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (Array.isArray(parts) && parts.length === 4 && parts[0] === list) {
    const [, page, rawKey, id] = parts as unknown[];
    const key = parseKey(rawKey);
    if (isCount(page) && page <= 100_000 && isCount(id) && key !== undefined) return { page, key, id };
  }
  throw new AppError('bad_request', 'The cursor is not valid: start again from the first page.');
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A timestamp key as the lists write it (microseconds, UTC), checked so PostgreSQL can read it back. */
export function parseTimestampKey(key: unknown): string | undefined {
  // Year 0 passes Date.parse but not PostgreSQL.
  if (typeof key !== 'string' || !TIMESTAMP.test(key) || key.startsWith('0000')) return undefined;
  const ms = Date.parse(key);
  // Date.parse rolls 30 February over to March; PostgreSQL would refuse it.
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 19) === key.slice(0, 19) ? key : undefined;
}

/**
 * A page's total and link to the next page: the total from the first row (every row carries the
 * `count`), or counted on its own past the end (0 when even the first page is empty); a next page
 * while rows remain, its cursor after the page's last row.
 */
export async function pageTail<R extends { key: unknown; total: number }>(
  db: Db,
  list: string,
  page: number,
  pageSize: number,
  rows: R[],
  count: SQL,
  idOf: (row: R) => number,
): Promise<{ total: number; next: { page: number; cursor: string } | null }> {
  let total = rows[0]?.total;
  if (total === undefined) {
    total = page === 1 ? 0 : ((await db.select({ total: count.mapWith(Number) }).from(sql`(select 1) as one`))[0]?.total ?? 0);
  }
  const last = rows.at(-1);
  const next =
    last && page * pageSize < total
      ? { page: page + 1, cursor: encodeCursor(list, { page: page + 1, key: last.key, id: idOf(last) }) }
      : null;
  return { total, next };
}
