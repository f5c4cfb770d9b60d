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

/** Country names that read with "the" in a sentence. */
const WITH_THE = new Set(['US', 'MH', 'PS']);

/**
 * "Texts go between 8:00 and 21:00 in all of Australia's time zones": a member whose phone's
 * country has several zones, none chosen for them (decision 0057). `window` is the server's
 * daytime (the end and start of QUIET_HOURS).
 */
export function countryTextHours(country: string, window: { from: string; to: string }): string {
  const named = new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
  const name = WITH_THE.has(country) ? `the ${named}` : named;
  const possessive = name.endsWith('s') ? `${name}'` : `${name}'s`;
  const clock = (time: string) => time.replace(/^0/, '');
  return `Texts go between ${clock(window.from)} and ${clock(window.to)} in all of ${possessive} time zones`;
}
