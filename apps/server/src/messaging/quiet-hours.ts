import { sql } from 'drizzle-orm';
import { isQuietMinute, minutesOf, type QuietHours } from '@loop/shared/quiet-hours';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import { addDays, fromLocal, toLocal } from '../lib/local-time';
import type { TextKind } from './outbox';

/**
 * Texts that answer a person who just texted Loop, or that they asked for (a sign-up or reset
 * code): they go at any hour (decision 0037). Everything else Loop starts waits out quiet hours.
 */
export const ANSWER_KINDS: readonly TextKind[] = ['reply', 'code', 'opt_out_notice'];

/**
 * When a text may go to someone in `timeZone` at `now`: null if now is outside quiet hours,
 * else the end of this quiet spell (08:00 local, the next day when it is past 21:00).
 */
export function quietUntil(now: Date, timeZone: string, quiet: QuietHours | null): Date | null {
  if (!quiet) return null;
  const local = toLocal(now, timeZone);
  if (!isQuietMinute(local.hour * 60 + local.minute, quiet)) return null;
  const end = minutesOf(quiet.end);
  const sameDay = local.hour * 60 + local.minute < end;
  const date = sameDay ? local : addDays(local, 1);
  return fromLocal({ year: date.year, month: date.month, day: date.day, hour: Math.floor(end / 60), minute: end % 60 }, timeZone);
}

/**
 * When a text may go to someone who could be in any of `zones` (their phone's country, decision
 * 0057): null if it is daytime in all of them now, else the first minute it is. Each pass moves
 * to the end of the quiet spell of every zone still in one; a country whose zones share a
 * daytime settles within two passes. Without a shared daytime, the first zone's end counts.
 */
export function quietUntilEverywhere(now: Date, zones: readonly string[], quiet: QuietHours | null): Date | null {
  let at = now;
  for (let pass = 0; pass < 4; pass += 1) {
    let moved = false;
    for (const zone of zones) {
      const until = quietUntil(at, zone, quiet);
      if (until) [at, moved] = [until, true];
    }
    if (!moved) return at === now ? null : at;
  }
  return quietUntil(now, zones[0] ?? 'UTC', quiet);
}

/** A claimed text and where its recipient is. */
export interface PlacedText {
  id: number;
  kind: string;
  attempts: number;
  /** The recipient's zone (recipientTimeZone); null when nothing is known. */
  recipientTimeZone: string | null;
  /** All zones of the recipient's phone's country when nothing else tells where they are (decision 0057), else null. */
  recipientCountryZones?: readonly string[] | null;
}

/**
 * Of texts just claimed, those that would reach their recipient in quiet hours go back to the
 * outbox with a not-before time (the end of the spell, in the recipient's zone) and their claim
 * undone; the others are returned, to go now. The row stays the one job of its text, so it goes
 * out once, at 08:00, by whichever process claims it then (decision 0037). An update checks the
 * row is still this claim's, so a process that stalled past its lease changes nothing.
 */
export async function deferQuietTexts<T extends PlacedText>(db: Db, rows: T[], now: Date, quiet: QuietHours | null): Promise<T[]> {
  if (!quiet || rows.length === 0) return rows;
  const go: T[] = [];
  const later: { id: number; attempts: number; at: Date }[] = [];
  for (const row of rows) {
    const zones = row.recipientCountryZones ?? (row.recipientTimeZone ? [row.recipientTimeZone] : []);
    const at = ANSWER_KINDS.includes(row.kind as TextKind) ? null : quietUntilEverywhere(now, zones, quiet);
    if (at) later.push({ id: row.id, attempts: row.attempts, at });
    else go.push(row);
  }
  if (later.length > 0) {
    const values = later.map((t) => sql`(${t.id}::bigint, ${t.attempts}::int, ${t.at.toISOString()}::timestamptz)`);
    await db.execute(sql`
      update ${messages} set status = 'queued', attempts = greatest(${messages.attempts} - 1, 0), next_attempt_at = null,
        not_before = v.not_before, updated_at = now()
      from (values ${sql.join(values, sql`, `)}) as v(id, attempts, not_before)
      where ${messages.id} = v.id and ${messages.status} = 'sending' and ${messages.attempts} = v.attempts`);
  }
  return go;
}
