import { describe, expect, it } from 'vitest';
import { sendTimeWords } from '../../src/publishing/newsletter-texts';

// Decision 0061: a time in a text is on the person's clock with its zone, as the web page shows it.
describe('sendTimeWords', () => {
  const now = new Date('2026-12-05T15:00:00Z');

  it('says the time on the person’s clock with its zone: "6:00 PM EST", not "18:00"', () => {
    expect(sendTimeWords(new Date('2026-12-05T23:00:00Z'), now, 'America/New_York')).toBe('today at 6:00 PM EST');
    expect(sendTimeWords(new Date('2026-12-06T18:00:00Z'), now, 'Europe/London')).toBe('tomorrow at 6:00 PM GMT');
    expect(sendTimeWords(new Date('2026-12-13T17:00:00Z'), now, 'Europe/Berlin')).toBe('on Sunday, December 13 at 6:00 PM GMT+1');
  });

  it('stays in GSM-7: no narrow no-break space before AM or PM (one would make the SMS UCS-2)', () => {
    const words = sendTimeWords(new Date('2026-12-06T09:05:00Z'), now, 'UTC');
    expect(words).toBe('tomorrow at 9:05 AM UTC');
    expect(words).toMatch(/^[\x20-\x7e]+$/);
  });
});
