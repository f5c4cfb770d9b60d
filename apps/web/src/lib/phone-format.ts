import { AsYouType, getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import metadata from 'libphonenumber-js/metadata.min.json';
import { PHONE_MAX_DIGITS } from '@loop/shared/constants';

export type { CountryCode };

export interface Country {
  code: CountryCode;
  name: string;
  callingCode: string;
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
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return countries;
}

export function findCountry(code: CountryCode): Country {
  return listCountries().find((country) => country.code === code) ?? listCountries()[0]!;
}

/** Names people search by that are not the country's English name or ISO code. */
const COMMON_NAMES: Partial<Record<CountryCode, string[]>> = {
  GB: ['uk', 'united kingdom', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland'],
  US: ['usa', 'united states of america', 'america'],
  NL: ['holland', 'the netherlands'],
  AE: ['uae', 'emirates'],
  KR: ['korea', 'republic of korea'],
  KP: ['dprk'],
  CZ: ['czech republic'],
  CI: ['ivory coast'],
  MM: ['burma'],
  SZ: ['swaziland'],
  MK: ['macedonia'],
  TR: ['turkey', 'turkiye'],
  CD: ['drc', 'congo kinshasa'],
  CG: ['congo brazzaville'],
  VA: ['vatican'],
  RU: ['russian federation'],
  DE: ['deutschland'],
  ES: ['espana'],
  CH: ['schweiz', 'suisse'],
};

/** Lower case without accents: "Côte d’Ivoire" and "cote d'ivoire" match. */
function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’']/g, "'").toLowerCase().trim();
}

/** How well a country matches a name search: 0 best, undefined no match. */
function nameRank(country: Country, q: string): number | undefined {
  const names = [normalize(country.name), ...(COMMON_NAMES[country.code] ?? [])];
  if (country.code.toLowerCase() === q || names.includes(q)) return 0;
  if (names.some((name) => name.startsWith(q))) return 1;
  if (names.some((name) => name.split(/[\s,()'-]+/).some((word) => word.startsWith(q)))) return 2;
  if (names.some((name) => name.includes(q))) return 3;
  return undefined;
}

/**
 * Countries matching a search by name, common name ("uk", "usa", "england", "holland"), ISO
 * code ("DE") or calling code ("+49", "49"): exact matches first, then prefixes, then the rest;
 * a calling code shared by several countries lists its main country first (+1: United States).
 */
export function searchCountries(query: string): Country[] {
  const q = normalize(query);
  if (q === '') return listCountries();
  const digits = q.replace(/^\+\s*/, '');
  const ranked: { country: Country; rank: number }[] = [];
  if (/^\d+$/.test(digits)) {
    for (const country of listCountries()) {
      if (!country.callingCode.startsWith(digits)) continue;
      const exact = country.callingCode === digits;
      const rank = exact ? (mainCountry(digits) === country.code ? 0 : 1) : 1 + country.callingCode.length;
      ranked.push({ country, rank });
    }
  } else {
    for (const country of listCountries()) {
      const rank = nameRank(country, q);
      if (rank !== undefined) ranked.push({ country, rank });
    }
  }
  // A stable sort: equal ranks stay in name order.
  return ranked.sort((a, b) => a.rank - b.rank).map((entry) => entry.country);
}

/** The digits a person may type after the calling code: E.164 allows 15 in all. */
export function maxNationalDigits(country: CountryCode): number {
  return PHONE_MAX_DIGITS - getCountryCallingCode(country).length;
}

/**
 * National digits formatted as the country writes them, as far as they are typed. Typed
 * without the trunk prefix (UK "7911 123456" for 07911 123456, France "6 12 34 56 78"),
 * many countries' national formats do not apply: the digits are grouped as the international
 * format groups them instead, so every country's numbers read in groups.
 */
export function formatNational(digits: string, country: CountryCode): string {
  if (digits === '') return '';
  const national = new AsYouType(country).input(digits);
  if (/\D/.test(national)) return national;
  const callingCode = getCountryCallingCode(country);
  const international = new AsYouType(country).input(`+${callingCode}${digits}`);
  const grouped = international.replace(`+${callingCode}`, '').trim();
  return grouped.replace(/\D/g, '') === digits ? grouped : national;
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
export function readInternational(text: string, preferred: CountryCode): { country: CountryCode; digits: string } | null {
  const digits = text.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
  const typed = new AsYouType();
  typed.input(`+${digits}`);
  const callingCode = typed.getCallingCode();
  if (!callingCode) return null;
  const country = typed.getCountry() ?? (getCountryCallingCode(preferred) === callingCode ? preferred : mainCountry(callingCode));
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
