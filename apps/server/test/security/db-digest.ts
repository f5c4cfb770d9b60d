import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';

/** Every table a request could change. */
export const TABLES = [
  'users',
  'sessions',
  'loops',
  'members',
  'updates',
  'media',
  'invites',
  'newsletters',
  'messages',
  'phone_opt_outs',
] as const;

/** The text of every row of these tables, optionally filtered, as one string per table. */
export function tableRows(table: string, where = 'true'): string {
  return `(select coalesce(string_agg(t::text, ',' order by t::text), '') from ${table} t where ${where})`;
}

/** An md5 of these row sets: equal digests before and after a request mean it changed nothing there. */
export async function digestRows(db: Db, parts: string[]): Promise<string> {
  return (await digestMany(db, { digest: parts })).digest ?? '';
}

/** Several digests in one query (each query costs a round trip, and the property test runs thousands). */
export async function digestMany<K extends string>(db: Db, sets: Record<K, string[]>): Promise<Record<K, string>> {
  const columns = Object.entries<string[]>(sets).map(([name, parts]) => `md5(concat_ws('|', ${parts.join(', ')})) as "${name}"`);
  const result = await db.execute(sql.raw(`select ${columns.join(', ')}`));
  // node-postgres and PGlite both answer with { rows }.
  return (result as { rows: Record<K, string>[] }).rows[0] ?? ({} as Record<K, string>);
}

/** Every row of every table (or all but some), for digestRows. */
export function allRows(options: { except?: string[] } = {}): string[] {
  return TABLES.filter((table) => !options.except?.includes(table)).map((table) => tableRows(table));
}

/** A digest of every row of every table (or all but some). */
export function digestTables(db: Db, options: { except?: string[] } = {}): Promise<string> {
  return digestRows(db, allRows(options));
}
