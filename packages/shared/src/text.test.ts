import { describe, expect, it } from 'vitest';
import { andList, claimsAuthority, hasLink, hasNoControlCharacters, hasNoNul, hasPhoneNumber, plural, toWellFormed } from './text';

describe('text checks', () => {
  it('allows tab and line breaks, refuses NUL, other C0 controls and DEL', () => {
    expect(hasNoControlCharacters('Line one\nline\ttwo\r\n')).toBe(true);
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f']) expect(hasNoControlCharacters(`a${c}b`)).toBe(false);
    expect(hasNoNul('bell \u0007 is kept')).toBe(true);
    expect(hasNoNul('a\u0000b')).toBe(false);
  });

  it('replaces lone surrogates and keeps whole emoji', () => {
    expect(toWellFormed('짯\udce5䀞')).toBe('짯\ufffd䀞');
    expect(toWellFormed('\ud800x\udfff')).toBe('\ufffdx\ufffd');
    expect(toWellFormed('family 👨‍👩‍👧 🙂')).toBe('family 👨‍👩‍👧 🙂');
  });

  it('lists and counts in words', () => {
    expect([[], ['Ada'], ['Ada', 'Ben'], ['Ada', 'Ben', 'Cleo']].map(andList)).toEqual(['', 'Ada', 'Ada and Ben', 'Ada, Ben and Cleo']);
    expect([plural(1, 'photo'), plural(3, 'photo'), plural(2, 'person', 'people')]).toEqual(['1 photo', '3 photos', '2 people']);
  });
});

describe('names that could phish', () => {
  it.each([
    'URGENT bank alert: verify at evil.co/x',
    'https://loop.example',
    'see HTTP://EVIL.CO',
    'go to www . example',
    'paypal.com',
    'Bit.ly/abc',
    'bit ly slash abc',
    'tinyurl',
    'evil[.]co',
    'evil (dot) co',
    'evil\uff0eco',
    'ｅｖｉｌ．ｃｏ',
    'ВЕРНО.рф',
    'xn--80ak6aa92e.com',
    'mailto:x',
    // Invisible characters between the letters and the dot (decision 0054).
    'paypal\u200b.com/verify',
    'paypal\u2060.com',
    'paypal\u00ad.com',
    'evil.\u200dco',
    'bit\u200b.\u200bly',
    'www\ufeff.example',
    'paypal\u034f.com',
  ])('%j holds a link', (name) => {
    expect(hasLink(name)).toBe(true);
  });

  it.each([
    'Call 415-555-0101',
    '+1 (415) 555 0101',
    '4155550101',
    '415.555.0101',
    '\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff10\uff11',
    '415\u200b555\u200b0101',
    '415\u00ad555\u2060 0101',
  ])('%j holds a phone number', (name) => {
    expect(hasPhoneNumber(name)).toBe(true);
  });

  it.each([
    'The Smiths',
    "Mary-Jane O'Neil",
    'St. John family',
    'J.R.R. Tolkien fans',
    'Class of 2019-2024',
    'Team 42',
    'No.1 fans',
    'e.g. us',
    'Ph.D. club',
    'Book club 2025',
    'Zoë & Chloé',
    '王小明',
    'Ünal. Çelik',
    // A family emoji is joined by zero-width joiners: still a name.
    'The Smiths \u{1F468}\u200d\u{1F469}\u200d\u{1F467}',
  ])('%j is an ordinary name', (name) => {
    expect(hasLink(name)).toBe(false);
    expect(hasPhoneNumber(name)).toBe(false);
  });
});

describe('names that claim to be a bank, a government body or a payment service (decision 0054)', () => {
  it.each([
    'Chase Bank Fraud Alert',
    'IRS Final Notice',
    'paypal dot com slash login',
    'PayPal Support',
    'Venmo',
    'Wells Fargo Security',
    'HMRC tax refund',
    'Social Security Administration',
    'Bank Account Verification',
    'Your card is locked',
    'Cash App',
    'secure dot net',
    'www dot example',
    'I\u200bRS Notice',
  ])('%j is refused', (name) => {
    expect(claimsAuthority(name)).toBe(true);
  });

  it.each([
    'Bank Street Book Club',
    'The IRSay family',
    'Chase Miller',
    'Chase and Ava',
    'West Bank cousins',
    'Card game night',
    'Fraud squad (a board game club)',
    'Amexia Jones',
    'Dot Cotton',
    'Dot and Com',
    'Visa Family',
    'The Smiths',
  ])('%j is a name', (name) => {
    expect(claimsAuthority(name)).toBe(false);
  });
});
