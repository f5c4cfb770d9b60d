import { describe, expect, it } from 'vitest';
import {
  findCountry,
  formatNational,
  formatPhoneNumber,
  listCountries,
  maxNationalDigits,
  readInternational,
  searchCountries,
  toPhoneValue,
} from './phone-format';

describe('phone formatting', () => {
  it('lists every country with a name and calling code', () => {
    const countries = listCountries();
    expect(countries.length).toBeGreaterThan(200);
    expect(findCountry('US')).toMatchObject({ code: 'US', name: 'United States', callingCode: '1' });
  });

  it('searches by name, ISO code and calling code', () => {
    expect(searchCountries('germ').map((c) => c.code)).toEqual(['DE']);
    expect(searchCountries('+44').map((c) => c.code)).toContain('GB');
    expect(searchCountries('44').every((c) => c.callingCode.startsWith('44'))).toBe(true);
    expect(searchCountries('us').map((c) => c.code)).toContain('US');
    expect(searchCountries('  ')).toHaveLength(listCountries().length);
  });

  it('formats national digits as you type', () => {
    expect(formatNational('415555', 'US')).toBe('(415) 555');
    expect(formatNational('4155550100', 'US')).toBe('(415) 555-0100');
    expect(formatNational('', 'US')).toBe('');
  });

  it('gives the form an E.164 value', () => {
    expect(toPhoneValue('4155550100', 'US')).toBe('+14155550100');
    expect(toPhoneValue('02079460958', 'GB')).toBe('+442079460958');
    expect(toPhoneValue('415', 'US')).toBe('+1415');
    expect(toPhoneValue('', 'US')).toBe('');
  });

  it('reads a pasted international number and switches country', () => {
    expect(readInternational('+44 20 7946 0958', 'US')).toEqual({ country: 'GB', digits: '02079460958' });
    expect(formatNational('02079460958', 'GB')).toBe('020 7946 0958');
    expect(toPhoneValue('02079460958', 'GB')).toBe('+442079460958');
    expect(readInternational('+44 20', 'US')).toEqual({ country: 'GB', digits: '20' });
    expect(readInternational('+1 (415) 555-0100', 'CA')).toEqual({ country: 'US', digits: '4155550100' });
    expect(readInternational('+1', 'CA')).toEqual({ country: 'CA', digits: '' });
    expect(readInternational('+1', 'FR')).toEqual({ country: 'US', digits: '' });
    expect(readInternational('+', 'US')).toBeNull();
  });

  it('allows 15 digits in all', () => {
    expect(maxNationalDigits('US')).toBe(14);
    expect(maxNationalDigits('GB')).toBe(13);
  });

  it('formats a stored number for reading', () => {
    expect(formatPhoneNumber('+14155550100')).toBe('+1 415 555 0100');
    expect(formatPhoneNumber('not a number')).toBe('not a number');
  });
});

describe('country search ranking', () => {
  const first = (query: string) => searchCountries(query)[0]?.code;

  it('finds countries by their common names', () => {
    expect(first('uk')).toBe('GB');
    expect(searchCountries('uk').map((c) => c.code)).toContain('UA');
    expect(first('usa')).toBe('US');
    expect(first('england')).toBe('GB');
    expect(first('Holland')).toBe('NL');
    expect(first('ivory coast')).toBe('CI');
  });

  it('puts exact and prefix matches before matches inside a name', () => {
    expect(first('india')).toBe('IN');
    expect(searchCountries('india').map((c) => c.code)).toEqual(['IN', 'IO']);
    expect(first('us')).toBe('US');
    expect(first('de')).toBe('DE');
    expect(first('ger')).toBe('DE');
    expect(first('africa')).toBe('CF');
    expect(first('cote')).toBe('CI');
  });

  it('ranks calling codes: exact code and its main country first', () => {
    expect(first('+1')).toBe('US');
    expect(first('44')).toBe('GB');
    expect(first('+7')).toBe('RU');
    expect(first('+49')).toBe('DE');
    expect(first('+91')).toBe('IN');
  });
});
