import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';

/**
 * What a phone number is, read with libphonenumber's full ("max") metadata: its country and its
 * type (mobile, fixed line, premium rate, shared cost...). Only the server imports this file: the
 * full metadata is large, and the web app checks numbers with the small set (phone.ts).
 */
export interface PhoneKind {
  /** ISO 3166-1 alpha-2 ("US", "GB"); null for numbers of no country (+800, +870, +881, +882, +883...). */
  country: string | null;
  /** null: the number is in no range the metadata knows. */
  type: NumberType | null;
}

export function phoneKind(e164: string): PhoneKind {
  const parsed = parsePhoneNumberFromString(e164.replace(/^whatsapp:/i, ''));
  if (!parsed) return { country: null, type: null };
  return { country: parsed.country ?? null, type: parsed.isValid() ? (parsed.getType() ?? null) : null };
}

/** "DE" is a country the metadata knows. */
export function isPhoneCountry(code: string): code is CountryCode {
  return isSupportedCountry(code);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "DE" -> "Germany". */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}
