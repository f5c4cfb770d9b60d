import { describe, expect, it } from 'vitest';
import { andList, hasNoControlCharacters, hasNoNul, plural, toWellFormed } from './text';

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
