import { asc, inArray, lte, sql } from 'drizzle-orm';
import type { ReminderEntry } from '@loop/shared/constants';
import type { Db } from '../db/client';
import { loopReminders, loops } from '../db/schema';
import { HOUR_MS } from '../lib/clock';
import { insertOutboundRows } from '../messaging/outbox';
import { findRecipients, type Recipient } from '../messaging/recipients';
import { pickQuestion, type PickedQuestion } from '../services/reminders/pick-question';
import { postedSinceLastNewsletter } from '../services/reminders/posted-since-last-newsletter';
import { activeMemberZones } from '../services/schedules/member-zones';
import { lastReminderSlot } from '../services/schedules/next-reminder';
import { nextReminderAt } from '../services/schedules/schedule-columns';
import { reminderTemplateVariables, reminderText } from './reminder-text';

/** A reminder more than this late (the server was down) is skipped rather than sent at night. */
export const REMINDER_LATE_LIMIT_MS = 3 * HOUR_MS;

export interface SweepHooks {
  /** Runs inside the transaction once Loops are claimed: lets tests kill a process mid-sweep. */
  afterClaim?: (loopIds: number[]) => Promise<void>;
}

/**
 * Claims up to `batch` Loops whose reminder is due, queues their texts and moves each Loop to
 * its next slot after `now`, all in one transaction: a crash or a second process can neither
 * lose a reminder nor send one twice. A member due in several Loops at the same minute gets one
 * text that names them all. Returns how many Loops were claimed and texts queued.
 */
export async function sweepReminders(db: Db, now: Date, batch: number, hooks: SweepHooks = {}): Promise<{ loops: number; texts: number }> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select({
        id: loops.id,
        name: loops.name,
        vibe: loops.vibe,
        paused: loops.paused,
        reminderSchedule: loops.reminderSchedule,
        timeZone: loops.timeZone,
        dueAt: loops.nextReminderAt,
      })
      .from(loops)
      .where(lte(loops.nextReminderAt, now))
      .orderBy(asc(loops.nextReminderAt), asc(loops.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (claimed.length === 0) return { loops: 0, texts: 0 };
    await hooks.afterClaim?.(claimed.map((l) => l.id));

    // Each member's reminder is due at the schedule's time in their own zone (decision 0036).
    const zones = await activeMemberZones(
      tx,
      claimed.map((l) => l.id),
    );
    const sending = claimed.filter((l) => !l.paused && l.dueAt);
    const texts = sending.length ? await queueReminderTexts(tx, sending, zones, now) : 0;

    const nextAt = claimed.map(
      (l) => sql`(${l.id}::bigint, ${nextReminderAt(l, now, zones.get(l.id)?.values())?.toISOString() ?? null}::timestamptz)`,
    );
    await tx.execute(sql`
      update ${loops} set next_reminder_at = v.next_at
      from (values ${sql.join(nextAt, sql`, `)}) as v(id, next_at)
      where ${loops.id} = v.id`);
    return { loops: claimed.length, texts };
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type DueLoop = { id: number; name: string; vibe: string[]; reminderSchedule: ReminderEntry[]; timeZone: string; dueAt: Date | null };

async function queueReminderTexts(tx: Tx, due: DueLoop[], zones: Map<number, Map<number, string>>, now: Date): Promise<number> {
  const recipients = await findRecipients(
    tx,
    due.map((l) => l.id),
  );
  const loopById = new Map(due.map((l) => [l.id, l]));
  // Only members who sent nothing since the last newsletter are reminded (decision 0043).
  const posted = await postedSinceLastNewsletter(
    tx,
    due.map((l) => l.id),
  );
  // One text per person per due minute, naming each of their Loops due then.
  const texts = new Map<string, { recipient: Recipient; minute: string; loops: { id: number; name: string }[] }>();
  const slots = new Map<string, ReturnType<typeof lastReminderSlot>>();
  for (const r of recipients) {
    const loop = loopById.get(r.loopId);
    if (!loop?.dueAt || posted.get(loop.id)?.has(r.userId)) continue;
    // The member's last slot in their zone: due if it came since the Loop's due time (so not
    // sent by an earlier sweep) and is not more than the late limit ago.
    const zone = zones.get(loop.id)?.get(r.userId) ?? loop.timeZone;
    const slotKey = `${loop.id}|${zone}`;
    // Once per Loop and zone: a Loop's members mostly share one.
    const slot = slots.has(slotKey)
      ? slots.get(slotKey)
      : slots.set(slotKey, lastReminderSlot(loop.reminderSchedule, zone, now)).get(slotKey);
    if (!slot || slot.at < loop.dueAt || now.getTime() - slot.at.getTime() > REMINDER_LATE_LIMIT_MS) continue;
    const minute = slot.at.toISOString().slice(0, 16);
    const key = `${r.userId}@${minute}`;
    const text = texts.get(key) ?? { recipient: r, minute, loops: [] };
    text.loops.push({ id: loop.id, name: loop.name });
    texts.set(key, text);
  }

  const questions = await askQuestions(tx, due, new Set([...texts.values()].flatMap((t) => t.loops.map((l) => l.id))));
  return insertOutboundRows(
    tx,
    [...texts.values()].map(({ recipient, minute, loops: theirs }) => {
      const names = theirs.map((l) => l.name);
      const question = questions.get(theirs[0]?.id ?? 0) ?? { text: "What's new?", own: false };
      return {
        channel: recipient.channel,
        kind: 'reminder' as const,
        toAddress: recipient.phoneNumber,
        fromAddress: '',
        body: reminderText(recipient.firstName, names, question),
        idempotencyKey: `reminder:${minute}:${recipient.userId}:${theirs.map((l) => l.id).join('-')}`,
        loopId: theirs[0]?.id ?? null,
        userId: recipient.userId,
        mediaUrls: [],
        raw: { contentVariables: JSON.stringify(reminderTemplateVariables(recipient.firstName, names)) },
      };
    }),
  );
}

/**
 * The question each Loop that texts anyone in this sweep asks (a text naming several Loops asks its
 * first Loop's), remembered as the Loop's last one so the next reminder asks another.
 */
async function askQuestions(tx: Tx, due: DueLoop[], asking: Set<number>): Promise<Map<number, PickedQuestion>> {
  const questions = new Map<number, PickedQuestion>();
  if (asking.size === 0) return questions;
  const state = new Map(
    (
      await tx
        .select()
        .from(loopReminders)
        .where(inArray(loopReminders.loopId, [...asking]))
    ).map((row) => [row.loopId, row]),
  );
  for (const loop of due) {
    if (!asking.has(loop.id) || !loop.dueAt) continue;
    const saved = state.get(loop.id);
    questions.set(
      loop.id,
      pickQuestion({
        loopId: loop.id,
        slot: loop.dueAt,
        vibes: loop.vibe,
        own: saved?.ownQuestions ?? [],
        last: saved?.lastQuestion ?? null,
      }),
    );
  }
  await tx
    .insert(loopReminders)
    .values([...questions].map(([loopId, q]) => ({ loopId, lastQuestion: q.text })))
    .onConflictDoUpdate({ target: loopReminders.loopId, set: { lastQuestion: sql`excluded.last_question` } });
  return questions;
}
