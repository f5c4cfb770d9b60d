let zones: Set<string> | undefined;

/** True for an IANA time zone name this runtime knows ("Europe/Paris", "UTC"). */
export function isTimeZone(value: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  return zones.has(value);
}
