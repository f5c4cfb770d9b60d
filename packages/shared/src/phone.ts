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

/**
 * A phone shown to whoever holds the browser, not to its owner: the country code and the last two
 * digits ("+1 •••••••• 60"). An invalid number is all dots.
 */
export function maskPhoneNumber(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return '••••••••';
  const national = String(parsed.nationalNumber);
  return `+${parsed.countryCallingCode} ${'•'.repeat(Math.max(national.length - 2, 0))} ${national.slice(-2)}`;
}
