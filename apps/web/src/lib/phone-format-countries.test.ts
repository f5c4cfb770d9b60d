import { getCountries, getCountryCallingCode, getExampleNumber, type CountryCode } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/examples.mobile.json';
import { describe, expect, it } from 'vitest';
import { formatNational, readInternational, toPhoneValue } from './phone-format';

// Every country libphonenumber knows, with its own example mobile number (libphonenumber's
// examples.mobile.json): typed nationally with and without the trunk prefix, and pasted with "+".
const cases = getCountries()
  .map((country) => ({ country, example: getExampleNumber(country, examples) }))
  .filter((c): c is { country: CountryCode; example: NonNullable<typeof c.example> } => c.example !== undefined);

const digitsOf = (text: string) => text.replace(/\D/g, '');
/** Whether libphonenumber writes this number in groups (a few countries' numbers have no format). */
const grouped = (text: string) => /\d\D+\d/.test(text);

describe('every country formats (UK, France, Germany stayed as typed)', () => {
  it('has examples for at least 200 countries', () => {
    expect(cases.length).toBeGreaterThan(200);
  });

  it.each(cases)('$country', ({ country, example }) => {
    const significant = example.nationalNumber;
    const withPrefix = digitsOf(example.formatNational());
    const international = example.formatInternational();
    const groupedAbroad = grouped(international.replace(`+${example.countryCallingCode}`, ''));

    // National digits as a person at home types them (with the trunk prefix, e.g. 07911 123456).
    const home = formatNational(withPrefix, country);
    expect(digitsOf(home)).toBe(withPrefix);
    if (grouped(example.formatNational())) expect(home).toMatch(/\d\D+\d/);
    expect(toPhoneValue(withPrefix, country)).toBe(example.number);

    // Without the trunk prefix (7911 123456).
    const bare = formatNational(significant, country);
    expect(digitsOf(bare)).toBe(significant);
    if (groupedAbroad) expect(bare).toMatch(/\d\D+\d/);
    expect(toPhoneValue(significant, country)).toBe(example.number);

    // Pasted with "+", while another country is picked.
    const read = readInternational(international, country === 'US' ? 'GB' : 'US');
    expect(read).not.toBeNull();
    expect(getCountryCallingCode(read!.country)).toBe(example.countryCallingCode);
    expect(toPhoneValue(read!.digits, read!.country)).toBe(example.number);
    if (groupedAbroad) expect(formatNational(read!.digits, read!.country)).toMatch(/\d\D+\d/);
  });

  it('formats the numbers seen unformatted', () => {
    expect(formatNational('7911123456', 'GB')).toBe('7911 123456');
    expect(formatNational('612345678', 'FR')).toBe('6 12 34 56 78');
    expect(formatNational('15123456789', 'DE')).toBe('1512 3456789');
    expect(formatNational('9876543210', 'IN')).toBe('98765 43210');
  });
});
