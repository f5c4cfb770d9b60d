import { and, desc, eq } from 'drizzle-orm';
import type { LoopNewsletters } from '@loop/shared/newsletters';
import type { Db } from '../../db/client';
import { newsletters } from '../../db/schema';
import type { LoopAccess } from '../loop-access';

/** How many sent newsletters the Loop page lists. */
export const LOOP_NEWSLETTER_LIMIT = 100;

/**
 * The Loop's sent newsletters (drafts stay with staff until sent) and when the next automatic
 * newsletter and reminder are due, for anyone who may see the Loop.
 */
export async function listLoopNewsletters(db: Db, access: LoopAccess): Promise<LoopNewsletters> {
  const { loop } = access;
  const rows = await db
    .select({ id: newsletters.id, kind: newsletters.kind, title: newsletters.title, sentAt: newsletters.sentAt, urlId: newsletters.urlId })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loop.id), eq(newsletters.status, 'sent')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(LOOP_NEWSLETTER_LIMIT);
  return {
    newsletters: rows.flatMap((row) => (row.sentAt ? [{ ...row, sentAt: row.sentAt.toISOString() }] : [])),
    nextNewsletterAt: loop.paused ? null : (loop.nextNewsletterAt?.toISOString() ?? null),
    nextReminderAt: loop.paused ? null : (loop.nextReminderAt?.toISOString() ?? null),
    paused: loop.paused,
    timeZone: loop.timeZone,
  };
}
