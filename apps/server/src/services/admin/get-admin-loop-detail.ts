import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { AdminLoopDetail, AdminLoopNewsletter, DeliveryCounts } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { messages, newsletters } from '../../db/schema';
import { getLoopDetail } from '../loops/get-loop-detail';

/** A Loop as staff see it: members, updates, and every newsletter with its delivery counts. */
export async function getAdminLoopDetail(db: Db, loopId: number): Promise<AdminLoopDetail> {
  const [detail, rows] = await Promise.all([
    getLoopDetail(db, loopId, 'staff'),
    db.select().from(newsletters).where(eq(newsletters.loopId, loopId)).orderBy(desc(newsletters.createdAt), desc(newsletters.id)),
  ]);
  const counts = rows.length
    ? await db
        .select({ newsletterId: messages.newsletterId, status: messages.status, count: sql<number>`count(*)`.mapWith(Number) })
        .from(messages)
        .where(inArray(messages.newsletterId, rows.map((n) => n.id)))
        .groupBy(messages.newsletterId, messages.status)
    : [];
  const list: AdminLoopNewsletter[] = rows.map((n) => {
    const delivery: DeliveryCounts = { queued: 0, sent: 0, delivered: 0, failed: 0 };
    for (const c of counts) {
      if (c.newsletterId !== n.id) continue;
      if (c.status === 'delivered') delivery.delivered += c.count;
      else if (c.status === 'sent') delivery.sent += c.count;
      else if (c.status === 'failed' || c.status === 'undelivered') delivery.failed += c.count;
      else delivery.queued += c.count;
    }
    return {
      id: n.id,
      loopId: n.loopId,
      kind: n.kind,
      status: n.status,
      sentAt: n.sentAt?.toISOString() ?? null,
      createdAt: n.createdAt.toISOString(),
      urlId: n.urlId,
      delivery,
    };
  });
  return { ...detail, newsletters: list };
}
