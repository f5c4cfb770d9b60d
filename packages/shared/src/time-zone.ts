import { z } from 'zod';

/**
 * True for a time zone name this runtime knows, aliases included ("Asia/Kolkata" and
 * "Asia/Calcutta", "UTC"): the test is whether Intl can format in it. `Intl.supportedValuesOf`
 * lists one canonical name per zone, which refused names people use every day.
 */
export function isTimeZone(value: string): boolean {
  // A zone name has no spaces; Intl also accepts offsets like "+05:30", which are not zones.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string({ error: 'Time zone must be text' })
  .trim()
  .refine(isTimeZone, { message: 'Time zone must be an IANA name such as "America/New_York"' });
