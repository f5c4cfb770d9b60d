/** The one date helper: dates and times as the person's browser writes them. */

/** "3/14/2026" (in the browser's locale). */
export function formatDate(value: string | Date): string {
  return new Date(value).toLocaleDateString();
}

/** "3/14/2026, 9:05:00 AM" (in the browser's locale), without the seconds. */
export function formatDateTime(value: string | Date): string {
  return new Date(value).toLocaleString(undefined, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** A wall-clock "HH:MM" as the browser writes times: "09:05" → "9:05 AM" (en-US). */
export function formatClockTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return new Date(2000, 0, 1, hours, minutes).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** "9:05 AM" (in the browser's locale): the time of a date, as a chat shows it. */
export function formatTime(value: string | Date): string {
  return new Date(value).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** "Sun, Mar 15, 6:00 PM GMT": a moment as the clock reads in a Loop's time zone, zone named. */
export function formatInZone(value: string | Date, timeZone: string): string {
  return new Date(value).toLocaleString(undefined, {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

/** "8:00 AM": the time a moment reads on the clock in another zone (a member's), zone not named. */
export function formatClockInZone(value: string | Date, timeZone: string): string {
  return new Date(value).toLocaleTimeString(undefined, { timeZone, hour: 'numeric', minute: '2-digit' });
}
