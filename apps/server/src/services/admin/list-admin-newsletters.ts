import { desc, eq, sql } from 'drizzle-orm';
import type { AdminNewsletter } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { loops, newsletters } from '../../db/schema';

/** Newsletters of every Loop, newest first (by send time, else creation), one page at a time. */
export async function listAdminNewsletters(
  db: Db,
  page: { page: number; pageSize: number },
): Promise<{ newsletters: AdminNewsletter[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({ newsletter: newsletters, loopName: loops.name })
      .from(newsletters)
      .innerJoin(loops, eq(loops.id, newsletters.loopId))
      .orderBy(desc(sql`coalesce(${newsletters.sentAt}, ${newsletters.createdAt})`), desc(newsletters.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(newsletters),
  ]);
  return {
    newsletters: rows.map(({ newsletter: n, loopName }) => ({
      id: n.id,
      loopId: n.loopId,
      loopName,
      kind: n.kind,
      status: n.status,
      sentAt: n.sentAt?.toISOString() ?? null,
      createdAt: n.createdAt.toISOString(),
      urlId: n.urlId,
      content: n.content,
    })),
    total: counted?.total ?? 0,
  };
}
