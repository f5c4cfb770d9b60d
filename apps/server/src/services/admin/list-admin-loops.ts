import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { adminLoopsQuerySchema } from '@loop/shared/admin';
import type { AdminSort } from '@loop/shared/constants';
import type { LoopSummary } from '@loop/shared/loops';
import { toWellFormed } from '@loop/shared/text';
import type { Db } from '../../db/client';
import { loops, rowCounts, users } from '../../db/schema';
import { LOOP_ORDERS, summaryFields, toLoopSummary } from '../loops/loop-summary';
import { decodeCursor, pageTail, parseTimestampKey, type PageCursor } from './page-cursor';

/** What separates the fields of `loops.search_text` (migration 0003). */
const SEARCH_SEPARATOR = '\u001f';

interface SortKeyset<K> {
  /** The sort key of a row, as the cursor carries it. */
  key: SQL;
  parseKey: (key: unknown) => K | undefined;
  /** Rows after the cursor in this order: a row comparison that the order's index answers. */
  after: (cursor: PageCursor<K>) => SQL;
}

const KEYSETS: { [S in AdminSort]: SortKeyset<S extends 'members' ? number : string> } = {
  recent: {
    key: sql`to_char(${loops.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    parseKey: parseTimestampKey,
    after: (c) => sql`(${loops.createdAt}, ${loops.id}) < (${c.key}::timestamptz, ${c.id})`,
  },
  name: {
    key: sql`lower(${loops.name})`,
    // Text PostgreSQL can take back: no NUL, no lone surrogate (a cursor is JSON, so it could carry either).
    parseKey: (key) => (typeof key === 'string' && key.length <= 1000 && !key.includes('\u0000') ? toWellFormed(key) : undefined),
    after: (c) => sql`(lower(${loops.name}), ${loops.id}) > (${c.key}::text, ${c.id})`,
  },
  members: {
    key: sql`${loops.memberCount}`,
    // Compared as an integer column: a larger number would fail the cast.
    parseKey: (key) => (typeof key === 'number' && Number.isSafeInteger(key) && key >= 0 && key <= 2_147_483_647 ? key : undefined),
    after: (c) => sql`(${loops.memberCount}, ${loops.id}) < (${c.key}::integer, ${c.id})`,
  },
};

export interface AdminLoopsPage {
  loops: LoopSummary[];
  total: number;
  next: { page: number; cursor: string } | null;
}

/**
 * Every Loop for staff: searched by Loop name and creator name or email (case-insensitively),
 * sorted, one page at a time, with the exact total, in one query. A cursor page starts after the
 * previous page's last row (keyset); a `page` number skips rows (offset).
 */
export async function listAdminLoops(db: Db, query: z.output<typeof adminLoopsQuerySchema>): Promise<AdminLoopsPage> {
  const keyset = KEYSETS[query.sort] as SortKeyset<unknown>;
  const list = `loops:${query.sort}`;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(list, query.cursor, keyset.parseKey);
  const page = cursor?.page ?? query.page;
  const filter = query.search ? searchFilter(query.search) : undefined;
  // Exact either way: a search counts its matches (the trigram index answers), all Loops are
  // counted by a trigger (row_counts).
  const count = filter
    ? sql`(select count(*) from ${loops} where ${filter})`
    : sql`(select ${rowCounts.count} from ${rowCounts} where ${rowCounts.tableName} = 'loops')`;

  // The page's ids first (an index walk, skipping `offset` rows when paging by number), then the
  // summaries of those rows only.
  const pageIds = db
    .select({ id: loops.id })
    .from(loops)
    .where(and(filter, cursor ? keyset.after(cursor) : undefined))
    .orderBy(...LOOP_ORDERS[query.sort])
    .limit(query.pageSize)
    .offset(cursor ? 0 : (page - 1) * query.pageSize);
  const rows = await db
    .select({ ...summaryFields, key: keyset.key, total: count.mapWith(Number) })
    .from(loops)
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(inArray(loops.id, pageIds))
    .orderBy(...LOOP_ORDERS[query.sort]);

  // Past the end, the total still counts.
  const { total, next } = await pageTail(db, list, page, query.pageSize, rows, count, (row) => row.loop.id);
  return { loops: rows.map(toLoopSummary), total, next };
}

/**
 * Loop name, creator "first last" or creator email contains the search, ignoring case: one LIKE
 * on the trigger-kept, lower-cased `search_text`, which the trigram index answers. LIKE wildcards
 * typed by staff are taken literally, so a match cannot span two fields unless the search itself
 * holds the separator; such a search takes the field-by-field path.
 */
function searchFilter(search: string): SQL {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (!search.includes(SEARCH_SEPARATOR)) return sql`${loops.searchText} like lower(${pattern})`;
  return sql`(${loops.name} ilike ${pattern} or ${loops.creatorId} in (select ${users.id} from ${users} where ${users.firstName} ilike ${pattern} or ${users.lastName} ilike ${pattern} or ${users.email} ilike ${pattern} or ${users.firstName} || ' ' || ${users.lastName} ilike ${pattern}))`;
}
