/** The browser's IANA time zone ("Europe/Paris"); "UTC" if it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

let zones: string[] | undefined;

/** Every time zone this browser knows, UTC first, and `current` even if the browser lacks it. */
export function timeZoneOptions(current?: string): string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

/** "America/New_York" → "America / New York". */
export function timeZoneLabel(zone: string): string {
  return zone.replaceAll('_', ' ').replaceAll('/', ' / ');
}
