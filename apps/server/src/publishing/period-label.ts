/** "March 1 – 14, 2025" in the Loop's time zone; one day reads "March 14, 2025". */
export function formatPeriod(start: Date, end: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, month: 'long', day: 'numeric', year: 'numeric' });
  // The end is exclusive: a period that ends at midnight does not name the next day.
  const last = new Date(Math.max(start.getTime(), end.getTime() - 1));
  // ICU puts thin spaces around the dash: plain spaces read the same and compare predictably.
  return format.formatRange(start, last).replace(/[\u2009\u202f]/g, ' ');
}

/** "Tuesday, March 3" in the Loop's time zone. */
export function formatDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', month: 'long', day: 'numeric' }).format(date);
}
