import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Normalizes a phone number to E.164 ("+14155550100"), or returns null when it is not a
 * valid number. Numbers without a "+" are read in the given default country.
 */
export function toE164(input: string, defaultCountry = 'US'): string | null {
  const cleaned = input.trim().replace(/^whatsapp:/i, '');
  if (cleaned === '') return null;
  const parsed = parsePhoneNumberFromString(cleaned, defaultCountry as Parameters<typeof parsePhoneNumberFromString>[1]);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}
