import { describe, expect, it } from 'vitest';
import { newsletterTexts } from '../publishing/newsletter-texts';
import { voiceFor } from '../publishing/template-voices';
import { lastCallText } from '../scheduling/reminder-text';

/** A Loop named "The Ochoa Family" gets no second article in the texts and newsletters that name it with "the". */
describe('a Loop whose name starts with "The"', () => {
  const facts = (loopName: string) => ({ loopName, period: 'May 1 - 7', summary: '2 updates', people: 'Ana' });

  it('has its newsletter text start with its own name', () => {
    const url = 'https://loop.example/n/abc';
    expect(newsletterTexts.newsletter('The Ochoa Family', url).body).toBe(
      `"The Ochoa Family" newsletter is here! Catch up on everyone's news and photos: ${url}`,
    );
    expect(newsletterTexts.newsletter('Ochoa Family', url).body).toMatch(/^The "Ochoa Family" newsletter is here!/);
    // "Theatre Club" starts with no article.
    expect(newsletterTexts.newsletter('Theatre Club', url).body).toMatch(/^The "Theatre Club" newsletter/);
  });

  it('reads right in the last call and in the newsletters the template writes', () => {
    expect(lastCallText('Ana', ['The Ochoa Family'])).toContain('Last call: "The Ochoa Family" newsletter goes out tomorrow.');
    expect(lastCallText('Ana', ['Smiths'])).toContain('Last call: the "Smiths" newsletter goes out tomorrow.');
    expect(voiceFor(['fun']).opening(facts('the Ochoas'))).toBe('Buckle up! the Ochoas newsletter is here with 2 updates from Ana.');
    expect(voiceFor(['fun']).opening(facts('Ochoas'))).toBe('Buckle up! The Ochoas newsletter is here with 2 updates from Ana.');
    expect(voiceFor(['funny']).teaser(facts('The Ochoas'))).toMatch(/^Leaked from The Ochoas newsroom:/);
  });
});
