import { sql, type SQL } from 'drizzle-orm';

/**
 * Rows as a table to insert, update or select from: `jsonb_to_recordset(…) as alias (column type, …)`.
 * The rows travel as one JSON parameter, so the statement text is the same for 1 row or 5,000
 * (PostgreSQL plans it once per connection) and the query builder does no per-row work.
 * `columns` gives every field of a row its PostgreSQL type, in the order the table lists them.
 */
export function recordset<R extends Record<string, unknown>>(alias: string, columns: { [K in keyof R]: string }, rows: readonly R[]): SQL {
  const definitions = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as ${sql.raw(alias)} (${sql.raw(definitions)})`;
}
