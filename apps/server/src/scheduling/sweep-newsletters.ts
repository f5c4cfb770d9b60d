import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { loops, newsletters, updates } from '../db/schema';
import { HOUR_MS } from '../lib/clock';
import type { MailLinks } from '../mail/links';
import type { NewsletterWriter } from '../publishing/writer';
import { draftScheduledNewsletter } from '../services/newsletters/draft-scheduled-newsletter';
import { prepareNewsletter } from '../services/newsletters/prepare-newsletter';
import { rewriteScheduledDraft } from '../services/newsletters/rewrite-scheduled-draft';
import { sendNewsletter } from '../services/newsletters/send-newsletter';
import { textOwnerAboutDraft } from '../services/newsletters/text-owner-about-draft';
import { nextNewsletterSlot } from '../services/schedules/next-newsletter';
import type { SweepHooks } from './sweep-reminders';

export type AutoNewsletters = 'send' | 'draft' | 'off';

export interface NewsletterSweepOptions {
  mode: AutoNewsletters;
  writer: NewsletterWriter;
  publicUrl: string;
  /** The e-mails' links (decision 0047); without them no e-mail is queued. */
  mail?: MailLinks | undefined;
  hooks?: SweepHooks;
}

/** A scheduled issue's draft is made this long before it goes (decision 0040). */
export const DRAFT_AHEAD_MS = 24 * HOUR_MS;
/** An unapproved draft of a Loop with review on texts its owner again this long before it goes. */
export const APPROVAL_REMINDER_AHEAD_MS = 2 * HOUR_MS;

/**
 * Step 1 of a scheduled issue (decision 0040): for one Loop whose next newsletter goes within
 * DRAFT_AHEAD_MS, writes its draft with that send time, texts the owner, and moves the Loop on
 * to the slot after it, in one transaction (the claim on the Loop row makes it exactly once, also
 * across processes). One Loop per transaction: the writer may wait on a model. Paused Loops,
 * `off` and periods without updates write nothing but still move on.
 */
export async function draftNextScheduledNewsletter(
  db: Db,
  now: Date,
  options: NewsletterSweepOptions,
): Promise<{ claimed: boolean; drafted: boolean }> {
  return db.transaction(async (tx) => {
    const [loop] = await tx
      .select({
        id: loops.id,
        paused: loops.paused,
        frequency: loops.frequency,
        timeZone: loops.timeZone,
        newsletterDay: loops.newsletterDay,
        newsletterTime: loops.newsletterTime,
        review: loops.newsletterReview,
        sendAt: loops.nextNewsletterAt,
      })
      .from(loops)
      .where(lte(loops.nextNewsletterAt, new Date(now.getTime() + DRAFT_AHEAD_MS)))
      .orderBy(asc(loops.nextNewsletterAt), asc(loops.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!loop?.sendAt) return { claimed: false, drafted: false };
    await options.hooks?.afterClaim?.([loop.id]);

    let drafted = false;
    if (!loop.paused && options.mode !== 'off') {
      const result = await draftScheduledNewsletter(tx, {
        loopId: loop.id,
        sendAt: loop.sendAt,
        now,
        writer: options.writer,
        publicUrl: options.publicUrl,
        review: loop.review,
      });
      drafted = result.status === 'drafted';
    }
    const after = new Date(Math.max(loop.sendAt.getTime(), now.getTime()));
    await tx
      .update(loops)
      .set({ nextNewsletterAt: nextNewsletterSlot(loop.frequency, loop.timeZone, after, loop).at })
      .where(eq(loops.id, loop.id));
    return { claimed: true, drafted };
  });
}

/**
 * Step 2: owners of Loops with review on whose scheduled draft is not approved, APPROVAL_REMINDER_AHEAD_MS
 * before it goes, get one more text per send time (a moved draft gets its own). Claimed with
 * SKIP LOCKED and marked in the same transaction, so once across processes. Returns how many.
 */
export async function sweepApprovalReminders(
  db: Db,
  now: Date,
  options: Pick<NewsletterSweepOptions, 'publicUrl' | 'mode'>,
  limit: number,
) {
  if (options.mode === 'off') return 0;
  return db.transaction(async (tx) => {
    const due = await claimScheduledDrafts(
      tx,
      and(
        scheduledDraftDueBy(new Date(now.getTime() + APPROVAL_REMINDER_AHEAD_MS)),
        isNull(newsletters.approvedAt),
        sql`${newsletters.approvalReminderFor} is distinct from ${newsletters.sendAt}`,
        eq(loops.newsletterReview, true),
      ),
      limit,
    );
    for (const { newsletter } of due) {
      await textOwnerAboutDraft(tx, { newsletter, step: 'last_call', now, publicUrl: options.publicUrl });
      await tx.update(newsletters).set({ approvalReminderFor: newsletter.sendAt }).where(eq(newsletters.id, newsletter.id));
    }
    return due.length;
  });
}

/** Scheduled drafts (joined to their Loops) matching `where`, soonest first, claimed with SKIP LOCKED. */
export function claimScheduledDrafts(tx: DbOrTx, where: SQL | undefined, limit: number) {
  return tx
    .select({ newsletter: newsletters })
    .from(newsletters)
    .innerJoin(loops, eq(loops.id, newsletters.loopId))
    .where(where)
    .orderBy(asc(newsletters.sendAt))
    .limit(limit)
    .for('update', { of: newsletters, skipLocked: true });
}

/** A scheduled draft, not skipped, that goes by `at`, of a Loop that is not paused (newsletters joined to loops). */
export function scheduledDraftDueBy(at: Date) {
  return and(
    eq(newsletters.status, 'draft'),
    isNull(newsletters.skippedAt),
    isNotNull(newsletters.sendAt),
    lte(newsletters.sendAt, at),
    eq(loops.paused, false),
  );
}

/**
 * Step 3: one scheduled draft whose time has come goes out, if it may: approved, or its Loop
 * sends automatically (review off, mode `send`). An unapproved draft of a Loop with review on is
 * never sent: it waits, kept, until its owner approves or skips it. The draft row is claimed with
 * SKIP LOCKED and sendNewsletter's change is conditional (draft -> sent), so the owner's "Send now"
 * at the same moment, or a second process, never sends it twice.
 *
 * A draft nobody approved or edited, of a Loop that sends automatically, is written again first
 * when updates came in after it was written: the members' day-before "last call" (decision 0043)
 * asks for news that day, and that news goes in this issue. An approved or edited draft goes as
 * the owner left it; later updates wait for the next issue.
 */
export async function sendNextScheduledNewsletter(
  db: Db,
  now: Date,
  options: NewsletterSweepOptions,
): Promise<{ claimed: boolean; textsQueued: number }> {
  if (options.mode === 'off') return { claimed: false, textsQueued: 0 };
  const mayGo =
    options.mode === 'send' ? or(isNotNull(newsletters.approvedAt), eq(loops.newsletterReview, false)) : isNotNull(newsletters.approvedAt);
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({
        id: newsletters.id,
        loopId: newsletters.loopId,
        review: loops.newsletterReview,
        approvedAt: newsletters.approvedAt,
        editedAt: newsletters.editedAt,
        periodEnd: newsletters.periodEnd,
      })
      .from(newsletters)
      .innerJoin(loops, eq(loops.id, newsletters.loopId))
      .where(and(scheduledDraftDueBy(now), mayGo))
      .orderBy(asc(newsletters.sendAt), asc(newsletters.id))
      .limit(1)
      .for('update', { of: newsletters, skipLocked: true });
    if (!due) return { claimed: false, textsQueued: 0 };
    await options.hooks?.afterClaim?.([due.loopId]);
    if (!due.review && !due.approvedAt && !due.editedAt && (await updatesAfter(tx, due.loopId, due.periodEnd))) {
      const prepared = await prepareNewsletter(tx, { loopId: due.loopId, kind: 'newsletter', now, writer: options.writer });
      if (prepared) await rewriteScheduledDraft(tx, due.loopId, prepared);
    }
    const sent = await sendNewsletter(tx, {
      loopId: due.loopId,
      newsletterId: due.id,
      now,
      publicUrl: options.publicUrl,
      mail: options.mail,
    });
    return { claimed: true, textsQueued: sent.textsQueued };
  });
}

async function updatesAfter(db: DbOrTx, loopId: number, periodEnd: Date): Promise<boolean> {
  const [later] = await db
    .select({ id: updates.id })
    .from(updates)
    .where(and(eq(updates.loopId, loopId), gt(updates.createdAt, periodEnd)))
    .limit(1);
  return Boolean(later);
}
