import { describe, expect, it } from 'vitest';
import { nextReminderSlot } from './next-reminder';

const NY = 'America/New_York';

describe('nextReminderSlot', () => {
  const schedule = [
    { day: 'thursday' as const, time: '09:00' },
    { day: 'sunday' as const, time: '17:00' },
  ];

  it('finds the next slot in the Loop zone', () => {
    // Wednesday 2026-01-14 noon in New York.
    const next = nextReminderSlot(schedule, NY, new Date('2026-01-14T17:00:00Z'));
    expect(next).toEqual({ at: new Date('2026-01-15T14:00:00Z'), slot: '2026-01-15T09:00' });
  });

  it('moves past a slot that is exactly now, and wraps to next week', () => {
    const sunday = nextReminderSlot(schedule, NY, new Date('2026-01-15T14:00:00Z'));
    expect(sunday?.slot).toBe('2026-01-18T17:00');
    const after = nextReminderSlot(schedule, NY, new Date('2026-01-18T22:00:00Z'));
    expect(after?.slot).toBe('2026-01-22T09:00');
  });

  it('uses the local weekday, not the UTC one', () => {
    // Thursday 07:00 in Tokyo is still Wednesday in UTC.
    const next = nextReminderSlot([{ day: 'thursday', time: '08:00' }], 'Asia/Tokyo', new Date('2026-01-14T21:00:00Z'));
    expect(next).toEqual({ at: new Date('2026-01-14T23:00:00Z'), slot: '2026-01-15T08:00' });
  });

  it('keeps a 02:30 slot once on spring-forward day and once on fall-back day', () => {
    const spring = nextReminderSlot([{ day: 'sunday', time: '02:30' }], NY, new Date('2026-03-07T12:00:00Z'));
    expect(spring).toEqual({ at: new Date('2026-03-08T07:30:00Z'), slot: '2026-03-08T02:30' });
    const then = nextReminderSlot([{ day: 'sunday', time: '02:30' }], NY, spring!.at);
    expect(then?.slot).toBe('2026-03-15T02:30');

    const fall = nextReminderSlot([{ day: 'sunday', time: '01:30' }], NY, new Date('2026-10-31T12:00:00Z'));
    expect(fall).toEqual({ at: new Date('2026-11-01T05:30:00Z'), slot: '2026-11-01T01:30' });
    // The second 01:30 of that night is not another slot.
    expect(nextReminderSlot([{ day: 'sunday', time: '01:30' }], NY, fall!.at)?.slot).toBe('2026-11-08T01:30');
  });

  it('answers null for an empty schedule', () => {
    expect(nextReminderSlot([], NY, new Date())).toBeNull();
  });
});
