import { describe, expect, it } from 'vitest';
import { nextNewsletterSlot } from './next-newsletter';

const LONDON = 'Europe/London';

describe('nextNewsletterSlot', () => {
  it('weekly: the coming Sunday at 18:00 local', () => {
    // Wednesday 2026-01-14.
    expect(nextNewsletterSlot('weekly', LONDON, new Date('2026-01-14T12:00:00Z'))).toEqual({
      at: new Date('2026-01-18T18:00:00Z'),
      slot: '2026-01-18',
    });
    // Summer time: 18:00 BST is 17:00Z.
    expect(nextNewsletterSlot('weekly', LONDON, new Date('2026-07-01T12:00:00Z')).at).toEqual(new Date('2026-07-05T17:00:00Z'));
  });

  it('biweekly: every other Sunday, the same Sundays for every Loop', () => {
    const first = nextNewsletterSlot('biweekly', LONDON, new Date('2026-01-12T00:00:00Z'));
    const second = nextNewsletterSlot('biweekly', LONDON, first.at);
    const third = nextNewsletterSlot('biweekly', LONDON, second.at);
    expect([first.slot, second.slot, third.slot]).toEqual(['2026-01-18', '2026-02-01', '2026-02-15']);
    expect(nextNewsletterSlot('biweekly', LONDON, new Date('2026-01-19T00:00:00Z')).slot).toBe('2026-02-01');
  });

  it('monthly: the last day of the month, leap years included', () => {
    expect(nextNewsletterSlot('monthly', LONDON, new Date('2028-02-03T00:00:00Z')).slot).toBe('2028-02-29');
    expect(nextNewsletterSlot('monthly', LONDON, new Date('2026-02-28T18:00:00Z')).slot).toBe('2026-03-31');
    expect(nextNewsletterSlot('monthly', 'America/Los_Angeles', new Date('2026-04-30T12:00:00Z'))).toEqual({
      at: new Date('2026-05-01T01:00:00Z'),
      slot: '2026-04-30',
    });
  });

  it("on the Loop's own day and time: weekly Friday 07:45, biweekly Wednesdays in the same weeks as the Sundays", () => {
    const friday = { newsletterDay: 'friday', newsletterTime: '07:45' } as const;
    expect(nextNewsletterSlot('weekly', LONDON, new Date('2026-01-14T12:00:00Z'), friday)).toEqual({
      at: new Date('2026-01-16T07:45:00Z'),
      slot: '2026-01-16',
    });
    const wednesday = { newsletterDay: 'wednesday', newsletterTime: '18:00' } as const;
    const first = nextNewsletterSlot('biweekly', LONDON, new Date('2026-01-12T00:00:00Z'), wednesday);
    const second = nextNewsletterSlot('biweekly', LONDON, first.at, wednesday);
    // The Sunday-to-Saturday weeks of 2026-01-18 and 2026-02-01 (the Sundays above).
    expect([first.slot, second.slot]).toEqual(['2026-01-21', '2026-02-04']);
    expect(nextNewsletterSlot('monthly', LONDON, new Date('2026-04-03T00:00:00Z'), friday).at).toEqual(new Date('2026-04-30T06:45:00Z'));
  });
});
