import { and, count, desc, eq, gte } from 'drizzle-orm';
import type { LoopNewsletters } from '@loop/shared/newsletters';
import type { Db } from '../../db/client';
import { newsletters, updates } from '../../db/schema';
import { canManage, type LoopAccess } from '../loop-access';
import { findComingIssue } from './find-coming-issue';
import { newsletterAudience } from './newsletter-audience';
import { listReactionsOf } from './reactions';
import { toNewsletter } from './to-newsletter';

/** How many sent newsletters the Loop page lists. */
export const LOOP_NEWSLETTER_LIMIT = 100;

/**
 * The Loop's sent newsletters and when the next newsletter (a scheduled draft's send time, else
 * the schedule's next slot) and reminder are due, for anyone who may see the Loop; the draft of
 * the coming issue for its owner and staff only (decision 0040).
 */
export async function listLoopNewsletters(db: Db, access: LoopAccess): Promise<LoopNewsletters> {
  const { loop } = access;
  const rows = await db
    .select({ id: newsletters.id, kind: newsletters.kind, title: newsletters.title, sentAt: newsletters.sentAt, urlId: newsletters.urlId })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loop.id), eq(newsletters.status, 'sent')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(LOOP_NEWSLETTER_LIMIT);
  // Reactions under each listed issue, for its owner to see in the app (decision 0056).
  const reacted = await listReactionsOf(
    db,
    rows.map((r) => r.id),
  );
  const comingIssue = await findComingIssue(db, loop.id);
  const nextAt = comingIssue?.sendAt ?? loop.nextNewsletterAt;
  const shown = comingIssue && canManage(access.role) ? comingIssue : null;
  // An update at or after the draft's period end is not in it (decision 0020).
  const [since] = shown
    ? await db
        .select({ n: count() })
        .from(updates)
        .where(and(eq(updates.loopId, loop.id), gte(updates.createdAt, shown.periodEnd)))
    : [];
  return {
    newsletters: rows.flatMap((row) =>
      row.sentAt
        ? [
            {
              ...row,
              sentAt: row.sentAt.toISOString(),
              reactions: reacted.filter((r) => r.newsletterId === row.id).map(({ firstName, body }) => ({ firstName, body })),
            },
          ]
        : [],
    ),
    nextNewsletterAt: loop.paused ? null : (nextAt?.toISOString() ?? null),
    nextReminderAt: loop.paused ? null : (loop.nextReminderAt?.toISOString() ?? null),
    paused: loop.paused,
    timeZone: loop.timeZone,
    newsletterReview: loop.newsletterReview,
    upcoming: shown ? toNewsletter(shown) : null,
    updatesSinceDraft: Number(since?.n ?? 0),
    audience: canManage(access.role) ? await newsletterAudience(db, loop.id) : null,
  };
}
