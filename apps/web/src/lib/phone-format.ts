import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/min';
import metadata from 'libphonenumber-js/metadata.min.json';
import { PHONE_MAX_DIGITS } from '@loop/shared/constants';

export type { CountryCode };

export interface Country {
  code: CountryCode;
  name: string;
  callingCode: string;
  flag: string;
}

let countries: Country[] | undefined;

/** Every country libphonenumber knows, with English names, sorted by name. */
export function listCountries(): Country[] {
  if (countries) return countries;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  countries = getCountries()
    .map((code) => ({
      code,
      name: names.of(code) ?? code,
      callingCode: getCountryCallingCode(code),
      flag: flagEmoji(code),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return countries;
}

export function findCountry(code: CountryCode): Country {
  return listCountries().find((country) => country.code === code) ?? listCountries()[0]!;
}

/** Countries whose name, code or calling code match a search ("ger", "DE", "+49", "49"). */
export function searchCountries(query: string): Country[] {
  const q = query.trim().toLowerCase();
  if (q === '') return listCountries();
  const digits = q.replace(/^\+/, '');
  const byCode = /^\d+$/.test(digits);
  return listCountries().filter((country) =>
    byCode
      ? country.callingCode.startsWith(digits)
      : country.name.toLowerCase().includes(q) || country.code.toLowerCase() === q,
  );
}

export function flagEmoji(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((char) => 0x1f1a5 + char.charCodeAt(0)));
}

/** The digits a person may type after the calling code: E.164 allows 15 in all. */
export function maxNationalDigits(country: CountryCode): number {
  return PHONE_MAX_DIGITS - getCountryCallingCode(country).length;
}

/** National digits formatted as the country writes them, as far as they are typed. */
export function formatNational(digits: string, country: CountryCode): string {
  if (digits === '') return '';
  return new AsYouType(country).input(digits);
}

/** The value a form gets: E.164 when the number parses, else "+" + calling code + digits, or "". */
export function toPhoneValue(digits: string, country: CountryCode): string {
  if (digits === '') return '';
  const parsed = parsePhoneNumberFromString(digits, country);
  if (parsed && parsed.countryCallingCode === getCountryCallingCode(country)) return parsed.number;
  return `+${getCountryCallingCode(country)}${digits}`;
}

/**
 * Reads an international number ("+44 20 7946 0958") into a country and national digits.
 * Returns null while the calling code is not complete yet ("+4").
 */
export function readInternational(
  text: string,
  preferred: CountryCode,
): { country: CountryCode; digits: string } | null {
  const digits = text.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
  const typed = new AsYouType();
  typed.input(`+${digits}`);
  const callingCode = typed.getCallingCode();
  if (!callingCode) return null;
  const country =
    typed.getCountry() ??
    (getCountryCallingCode(preferred) === callingCode ? preferred : mainCountry(callingCode));
  if (!country) return null;
  return { country, digits: nationalDigits(digits, callingCode, country) };
}

// A complete number is shown as the country writes it at home, trunk prefix included
// (+44 20... becomes 020...), so that it formats as the country's people type it.
function nationalDigits(digits: string, callingCode: string, country: CountryCode): string {
  const significant = digits.slice(callingCode.length);
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed?.isValid()) return significant;
  const national = parsed.formatNational().replace(/\D/g, '');
  return toPhoneValue(national, country) === parsed.number ? national : significant;
}

function mainCountry(callingCode: string): CountryCode | undefined {
  const codes = (metadata.country_calling_codes as Record<string, string[] | undefined>)[callingCode];
  return codes?.[0] as CountryCode | undefined;
}

/** A stored E.164 number for people to read: "+1 415 555 0100". */
export function formatPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
