import { ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { adminLoopsQuerySchema } from '@loop/shared/admin';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, users } from '../../db/schema';
import { selectLoopSummaries } from '../loops/loop-summary';

/** Every Loop for staff: searched by Loop name and creator name or email, sorted, one page at a time. */
export async function listAdminLoops(
  db: Db,
  query: z.output<typeof adminLoopsQuerySchema>,
): Promise<{ loops: LoopSummary[]; total: number }> {
  const where = query.search ? searchCondition(query.search) : undefined;
  const [page, [counted]] = await Promise.all([
    selectLoopSummaries(db, where, {
      order: query.sort,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    where
      ? db
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(loops)
          .innerJoin(users, sql`${users.id} = ${loops.creatorId}`)
          .where(where)
      : db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(loops),
  ]);
  return { loops: page, total: counted?.total ?? 0 };
}

function searchCondition(search: string) {
  // LIKE wildcards typed by staff are taken literally.
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(loops.name, pattern),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    ilike(users.email, pattern),
    ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
  );
}
