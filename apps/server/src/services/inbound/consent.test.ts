import { describe, expect, it } from 'vitest';
import { parseConsent } from './consent';

describe('parseConsent', () => {
  it('YES or JOIN alone, any case, confirms every invitation', () => {
    for (const body of ['YES', 'yes', ' Yes! ', 'join', 'JOIN.']) expect(parseConsent(body)).toMatchObject({ name: null, loose: false });
    expect(parseConsent('join')?.word).toBe('JOIN');
  });

  it('a Loop named on another line, by #name or by "Name:"', () => {
    expect(parseConsent('YES\nSmith Family')).toEqual({ word: 'YES', name: 'Smith Family', loose: false });
    expect(parseConsent('Smith Family\nyes')).toEqual({ word: 'YES', name: 'Smith Family', loose: false });
    expect(parseConsent('YES #smithfamily')).toEqual({ word: 'YES', name: 'smithfamily', loose: false });
    expect(parseConsent('#smithfamily join')).toEqual({ word: 'JOIN', name: 'smithfamily', loose: false });
    expect(parseConsent('Smith Family: YES')).toEqual({ word: 'YES', name: 'Smith Family', loose: false });
  });

  it('"JOIN Smith Family" is loose: only an invitation of that name makes it consent', () => {
    expect(parseConsent('JOIN Smith Family')).toEqual({ word: 'JOIN', name: 'Smith Family', loose: true });
    expect(parseConsent('Yes we made it to the lake')).toMatchObject({ loose: true });
  });

  it('anything else is not consent', () => {
    for (const body of ['', 'Yesterday was fun', 'yes we did\nand more', 'START', 'YESS']) expect(parseConsent(body)).toBeNull();
  });
});
