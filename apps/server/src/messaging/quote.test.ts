import { describe, expect, it } from 'vitest';
import { nameNeedsQuotes, quotedPerson } from './quote';

// Decision 0061: a person's name is quoted in a text only where it could be taken for an instruction.
describe('quotedPerson', () => {
  it.each(['Maria', 'Ana Owner', 'Mary-Jane O’Neil', 'J. R.', 'Zoë', 'José', 'Ольга', '美咲'])(
    'leaves a plain name as it is: %s',
    (name) => {
      expect(nameNeedsQuotes(name)).toBe(false);
      expect(quotedPerson(name)).toBe(name);
    },
  );

  it.each(['STOP', 'Reply YES', 'Stop Now', 'Call 555 1234', 'bank.example/pay', 'Ann: text HELP', 'Pay "now"', 'Bob2'])(
    'quotes one that could be taken for an instruction: %s',
    (name) => {
      expect(nameNeedsQuotes(name)).toBe(true);
      expect(quotedPerson(name)).toMatch(/^".*"$/);
    },
  );

  it('still flattens and shortens a plain name', () => {
    expect(quotedPerson('Maria\nJosé')).toBe('Maria José');
    expect(quotedPerson('Bartholomew Alexander Montgomery-Smythe')).toBe('Bartholomew Alexander Montg...');
  });
});
