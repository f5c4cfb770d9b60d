import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminNewsletter, adminNewslettersQuerySchema } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { loops, newsletters, rowCounts } from '../../db/schema';
import { decodeCursor, pageTail, parseTimestampKey } from './page-cursor';

const LIST = 'newsletters';
/** Newest first: by send time, else creation (index newsletters_newest_idx). */
const newest = sql`coalesce(${newsletters.sentAt}, ${newsletters.createdAt})`;
/** Exact, without counting every newsletter: kept by a trigger (row_counts). */
const total = sql`(select ${rowCounts.count} from ${rowCounts} where ${rowCounts.tableName} = 'newsletters')`;

/**
 * Newsletters of every Loop, newest first, one page at a time with the exact total, in one query.
 * A cursor page starts after the previous page's last row; a `page` number skips rows.
 */
export async function listAdminNewsletters(
  db: Db,
  query: z.output<typeof adminNewslettersQuerySchema>,
): Promise<{ newsletters: AdminNewsletter[]; total: number; next: { page: number; cursor: string } | null }> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(LIST, query.cursor, parseTimestampKey);
  const page = cursor?.page ?? query.page;
  const rows = await db
    .select({
      id: newsletters.id,
      loopId: newsletters.loopId,
      loopName: loops.name,
      kind: newsletters.kind,
      status: newsletters.status,
      sentAt: newsletters.sentAt,
      createdAt: newsletters.createdAt,
      urlId: newsletters.urlId,
      content: newsletters.content,
      key: sql<string>`to_char(${newest} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      total: total.mapWith(Number),
    })
    .from(newsletters)
    .innerJoin(loops, eq(loops.id, newsletters.loopId))
    .where(cursor ? sql`(${newest}, ${newsletters.id}) < (${cursor.key}::timestamptz, ${cursor.id})` : undefined)
    .orderBy(sql`${newest} desc`, sql`${newsletters.id} desc`)
    .limit(query.pageSize)
    .offset(cursor ? 0 : (page - 1) * query.pageSize);

  const { total: counted, next } = await pageTail(db, LIST, page, query.pageSize, rows, total, (row) => row.id);
  return {
    newsletters: rows.map((n) => ({
      id: n.id,
      loopId: n.loopId,
      loopName: n.loopName,
      kind: n.kind,
      status: n.status,
      sentAt: n.sentAt?.toISOString() ?? null,
      createdAt: n.createdAt.toISOString(),
      urlId: n.urlId,
      content: n.content,
    })),
    total: counted,
    next,
  };
}
