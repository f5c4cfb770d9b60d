import { inArray, sql } from 'drizzle-orm';
import { ADMIN_DETAIL_MEMBER_LIMIT, type AdminLoopDetail, type AdminLoopNewsletter, type DeliveryCounts } from '@loop/shared/admin';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { getLoopDetailAndNewsletters } from '../loops/get-loop-detail';
import type { SettledCounts } from './settled-counts';

/**
 * Decision 0007: the texts of a newsletter sent this long ago have their final status (sending,
 * retries and the provider's status callbacks end within hours)...
 */
const SETTLED_AFTER_MS = 2 * DAY_MS;
/** ...so their counts are kept this long, for the rare late status callback. */
const SETTLED_COUNTS_TTL_MS = 5 * 60_000;
const SETTLED_COUNTS_MAX = 20_000;

/**
 * A Loop as staff see it: its first members (all of them when asked), newest updates, and every
 * newsletter with its delivery counts (a 404 when there is no such Loop). Delivery counts are
 * counted from messages (index messages_newsletter_id_status_idx): exactly for recent newsletters
 * (in the same statement), and at most five minutes old for newsletters sent more than two days ago.
 */
export async function getAdminLoopDetail(
  ctx: { db: Db; settledCounts: SettledCounts },
  loopId: number,
  options: { now: Date; allMembers?: boolean },
): Promise<AdminLoopDetail> {
  const { db, settledCounts: cache } = ctx;
  const now = options.now.getTime();
  // The Loop, its newsletters and the delivery counts of the recent ones in one statement (each
  // statement is a round trip).
  const { detail, newsletters: rows } = await getLoopDetailAndNewsletters(db, loopId, 'staff', {
    ...(options.allMembers ? {} : { memberLimit: ADMIN_DETAIL_MEMBER_LIMIT }),
    now: options.now,
    newsletters: { countedAfter: new Date(now - SETTLED_AFTER_MS) },
    // Staff see each person as they are (decision 0031).
    staffView: true,
  });

  const counts = new Map<number, DeliveryCounts>();
  for (const n of rows) {
    if (n.freshCounts) {
      const delivery = emptyCounts();
      for (const [status, count] of Object.entries(n.freshCounts)) addCount(delivery, status, Number(count));
      counts.set(n.id, delivery);
      continue;
    }
    const kept = cache.get(n.id);
    if (kept && kept.until > now) counts.set(n.id, kept.delivery);
  }
  const toCount = rows.filter((n) => !counts.has(n.id)).map((n) => n.id);
  if (toCount.length > 0) {
    const byStatus = await db
      .select({ newsletterId: messages.newsletterId, status: messages.status, count: sql`count(*)`.mapWith(Number) })
      .from(messages)
      .where(inArray(messages.newsletterId, toCount))
      .groupBy(messages.newsletterId, messages.status);
    for (const row of byStatus) {
      if (row.newsletterId === null) continue;
      const delivery = counts.get(row.newsletterId) ?? emptyCounts();
      addCount(delivery, row.status, row.count);
      counts.set(row.newsletterId, delivery);
    }
    if (cache.size > SETTLED_COUNTS_MAX) cache.clear();
    const counted = new Set(toCount);
    for (const n of rows) {
      if (counted.has(n.id) && n.sentAt && now - n.sentAt.getTime() > SETTLED_AFTER_MS) {
        cache.set(n.id, { delivery: counts.get(n.id) ?? emptyCounts(), until: now + SETTLED_COUNTS_TTL_MS });
      }
    }
  }

  const list: AdminLoopNewsletter[] = rows.map((n) => ({
    id: n.id,
    loopId: n.loopId,
    kind: n.kind,
    status: n.status,
    sentAt: n.sentAt?.toISOString() ?? null,
    createdAt: n.createdAt.toISOString(),
    urlId: n.urlId,
    delivery: { ...(counts.get(n.id) ?? emptyCounts()) },
  }));
  return { ...detail, newsletters: list };
}

function emptyCounts(): DeliveryCounts {
  return { queued: 0, sent: 0, delivered: 0, failed: 0 };
}

function addCount(delivery: DeliveryCounts, status: string, count: number): void {
  if (status === 'delivered') delivery.delivered += count;
  else if (status === 'sent') delivery.sent += count;
  else if (status === 'failed' || status === 'undelivered') delivery.failed += count;
  else delivery.queued += count;
}
