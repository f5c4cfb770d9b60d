import { and, asc, eq, gt, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loopReminders, loops } from '../db/schema';
import { DAY_MS } from '../lib/clock';
import { insertOutboundRows } from '../messaging/outbox';
import { findRecipients, type Recipient } from '../messaging/recipients';
import { postedSinceLastNewsletter } from '../services/reminders/posted-since-last-newsletter';
import { lastCallText, reminderTemplateVariables } from './reminder-text';
import { REMINDER_LATE_LIMIT_MS, type SweepHooks } from './sweep-reminders';

/** The "last call" goes this long before the newsletter (decision 0043). */
export const LAST_CALL_BEFORE_MS = DAY_MS;

/**
 * Claims up to `batch` Loops whose newsletter goes out within a day and whose last call has not
 * gone for that newsletter, texts their members who have sent nothing since the last newsletter
 * (one text per person naming all their Loops), and marks each Loop's last call done for that
 * newsletter, in one transaction (claimed with SKIP LOCKED: once, also across processes). A Loop
 * that is paused, or whose day-before moment passed more than the reminders' late limit ago (the
 * server was down, the Loop was just made), is marked done without texts. Recipients, STOP and
 * quiet hours are the usual rules (findRecipients now, and again at send time).
 */
export async function sweepLastCalls(db: Db, now: Date, batch: number, hooks: SweepHooks = {}): Promise<{ loops: number; texts: number }> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select({ id: loops.id, name: loops.name, paused: loops.paused, newsletterAt: loops.nextNewsletterAt })
      .from(loops)
      .where(
        and(
          isNotNull(loops.nextNewsletterAt),
          lte(loops.nextNewsletterAt, new Date(now.getTime() + LAST_CALL_BEFORE_MS)),
          gt(loops.nextNewsletterAt, now),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(loopReminders)
              .where(and(eq(loopReminders.loopId, loops.id), eq(loopReminders.lastCallFor, loops.nextNewsletterAt))),
          ),
        ),
      )
      .orderBy(asc(loops.nextNewsletterAt), asc(loops.id))
      .limit(batch)
      .for('update', { of: loops, skipLocked: true });
    if (claimed.length === 0) return { loops: 0, texts: 0 };
    await hooks.afterClaim?.(claimed.map((l) => l.id));

    const calling = claimed.filter(
      (l) => !l.paused && l.newsletterAt && now.getTime() - (l.newsletterAt.getTime() - LAST_CALL_BEFORE_MS) <= REMINDER_LATE_LIMIT_MS,
    );
    const texts = calling.length ? await queueLastCalls(tx, calling) : 0;
    await tx
      .insert(loopReminders)
      .values(claimed.map((l) => ({ loopId: l.id, lastCallFor: l.newsletterAt })))
      .onConflictDoUpdate({ target: loopReminders.loopId, set: { lastCallFor: sql`excluded.last_call_for` } });
    return { loops: claimed.length, texts };
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function queueLastCalls(tx: Tx, calling: { id: number; name: string; newsletterAt: Date | null }[]): Promise<number> {
  const ids = calling.map((l) => l.id);
  const [recipients, posted] = await Promise.all([findRecipients(tx, ids), postedSinceLastNewsletter(tx, ids)]);
  const loopById = new Map(calling.map((l) => [l.id, l]));
  const texts = new Map<number, { recipient: Recipient; loops: { id: number; name: string; at: string }[] }>();
  for (const r of recipients) {
    const loop = loopById.get(r.loopId);
    if (!loop?.newsletterAt || posted.get(loop.id)?.has(r.userId)) continue;
    const text = texts.get(r.userId) ?? { recipient: r, loops: [] };
    text.loops.push({ id: loop.id, name: loop.name, at: loop.newsletterAt.toISOString() });
    texts.set(r.userId, text);
  }
  return insertOutboundRows(
    tx,
    [...texts.values()].map(({ recipient, loops: theirs }) => {
      const names = theirs.map((l) => l.name);
      return {
        channel: recipient.channel,
        // A reminder as carriers and WhatsApp templates see it: same template, same frequency.
        kind: 'reminder' as const,
        toAddress: recipient.phoneNumber,
        fromAddress: '',
        body: lastCallText(recipient.firstName, names),
        idempotencyKey: `last-call:${recipient.userId}:${theirs.map((l) => `${l.id}@${l.at}`).join('-')}`,
        loopId: theirs[0]?.id ?? null,
        userId: recipient.userId,
        mediaUrls: [],
        raw: { contentVariables: JSON.stringify(reminderTemplateVariables(recipient.firstName, names)) },
      };
    }),
  );
}
