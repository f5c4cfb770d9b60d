import type { Frequency, ReminderEntry } from '@loop/shared/constants';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops } from '../../db/schema';
import { activeMemberZones } from './member-zones';
import { DEFAULT_NEWSLETTER_WHEN, nextNewsletterSlot, type NewsletterWhen } from './next-newsletter';
import { nextReminderSlot } from './next-reminder';

/**
 * The indexed columns the scheduler sweeps on, recomputed whenever a Loop's schedule changes.
 * A reminder is due at the schedule's time in each member's own zone, so a Loop's next reminder
 * is the earliest of those over the Loop's zone and its members' (decision 0036).
 */
export function nextReminderAt(
  loop: { reminderSchedule: readonly ReminderEntry[]; timeZone: string },
  now: Date,
  memberZones: Iterable<string> = [],
): Date | null {
  let best: Date | null = null;
  for (const zone of new Set([loop.timeZone, ...memberZones])) {
    const at = nextReminderSlot(loop.reminderSchedule, zone, now)?.at ?? null;
    if (at && (!best || at < best)) best = at;
  }
  return best;
}

/** nextReminderAt with the zones of the Loop's active members, read now. */
export async function nextReminderAtForLoop(
  tx: DbOrTx,
  loop: { id: number; reminderSchedule: readonly ReminderEntry[]; timeZone: string },
  now: Date,
): Promise<Date | null> {
  const zones = (await activeMemberZones(tx, [loop.id])).get(loop.id);
  return nextReminderAt(loop, now, zones?.values() ?? []);
}

/**
 * After a member's zone changed: the Loop's next reminder becomes the earliest over its members'
 * zones if that is sooner, so the member's next slot in their new zone is not passed by.
 */
export async function moveReminderEarlier(tx: DbOrTx, loopId: number, now: Date): Promise<void> {
  const [loop] = await tx
    .select({ id: loops.id, reminderSchedule: loops.reminderSchedule, timeZone: loops.timeZone })
    .from(loops)
    .where(eq(loops.id, loopId))
    .for('update');
  if (!loop) return;
  const at = await nextReminderAtForLoop(tx, loop, now);
  if (at) {
    await tx
      .update(loops)
      .set({ nextReminderAt: sql`least(${loops.nextReminderAt}, ${at.toISOString()}::timestamptz)` })
      .where(eq(loops.id, loopId));
  }
}

/** The Loop's next newsletter slot after now: on its day and at its time when it has them (Sunday 18:00 otherwise). */
export function nextNewsletterAt(loop: { frequency: Frequency; timeZone: string } & Partial<NewsletterWhen>, now: Date): Date {
  const when = { ...DEFAULT_NEWSLETTER_WHEN, ...definedOnly(loop) };
  return nextNewsletterSlot(loop.frequency, loop.timeZone, now, when).at;
}

function definedOnly(loop: Partial<NewsletterWhen>): Partial<NewsletterWhen> {
  return {
    ...(loop.newsletterDay ? { newsletterDay: loop.newsletterDay } : {}),
    ...(loop.newsletterTime ? { newsletterTime: loop.newsletterTime } : {}),
  };
}
