import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loops } from '../../db/schema';
import { AppError } from '../../errors';
import type { MailLinks } from '../../mail/links';
import { changeComingIssue } from './change-coming-issue';
import { getLoopNewsletter } from './get-loop-newsletter';
import type { NewsletterRow } from './insert-newsletter';
import { sendNewsletter } from './send-newsletter';

/**
 * The owner's (or staff's) OK for a scheduled draft (decision 0040): it goes at its send time. A
 * draft whose time has passed (it waited for this) goes now. A draft made by hand has no send
 * time: it is sent with "Send now", or given a time with "Move" first (409).
 */
export async function approveNewsletter(
  db: Db,
  input: { loopId: number; newsletterId: number; now: Date; publicUrl: string; mail?: MailLinks | undefined },
): Promise<{ newsletter: NewsletterRow; textsQueued: number }> {
  const draft = await getLoopNewsletter(db, input.loopId, input.newsletterId);
  if (draft.status === 'draft' && !draft.skippedAt && !draft.sendAt) {
    throw new AppError('conflict', 'This draft has no send time yet. Use "Send now", or "Move" to give it a time, then approve it.');
  }
  const approved = await changeComingIssue(db, { ...input, values: { approvedAt: input.now } });
  // A paused Loop's approved draft waits: the scheduler sends it once the Loop is resumed.
  if (approved.sendAt && approved.sendAt.getTime() <= input.now.getTime() && !(await isPaused(db, input.loopId))) {
    return sendNewsletter(db, input);
  }
  return { newsletter: approved, textsQueued: 0 };
}

async function isPaused(db: Db, loopId: number): Promise<boolean> {
  const [loop] = await db.select({ paused: loops.paused }).from(loops).where(eq(loops.id, loopId));
  return loop?.paused ?? false;
}
