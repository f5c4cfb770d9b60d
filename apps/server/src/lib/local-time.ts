/**
 * Wall-clock time in a Loop's time zone, with no library: Intl tells us a zone's offset at
 * any instant, and we search around it. Daylight-saving rules:
 * - a wall time skipped by spring-forward (02:30 on that day) happens at the shifted time (03:30);
 * - a wall time that happens twice at fall-back (01:30) is taken at its first occurrence.
 */
export interface LocalDateTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
}

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and time in `timeZone` at an instant. */
export function toLocal(instant: Date | number, timeZone: string): LocalDateTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function offsetAt(instant: number, timeZone: string): number {
  const l = toLocal(instant, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

function sameWallTime(instant: number, wall: LocalDateTime, timeZone: string): boolean {
  const l = toLocal(instant, timeZone);
  return l.year === wall.year && l.month === wall.month && l.day === wall.day && l.hour === wall.hour && l.minute === wall.minute;
}

/** The instant at which a wall-clock time happens in a zone (see the DST rules above). */
export function fromLocal(wall: LocalDateTime, timeZone: string): Date {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const before = offsetAt(naive - 12 * HOUR_MS, timeZone);
  const after = offsetAt(naive + 12 * HOUR_MS, timeZone);
  const candidates = [naive - before, naive - after].filter((t) => sameWallTime(t, wall, timeZone)).sort((a, b) => a - b);
  // No candidate: the time was skipped; the offset in force before the jump lands after it.
  return new Date(candidates[0] ?? naive - before);
}

/** 0 = Monday ... 6 = Sunday, for a calendar date. */
export function weekdayIndex(year: number, month: number, day: number): number {
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/** The calendar date `days` after the given one. */
export function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function formatDate(date: { year: number; month: number; day: number }): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
