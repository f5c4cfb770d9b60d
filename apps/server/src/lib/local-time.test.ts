import { describe, expect, it } from 'vitest';
import { fromLocal, toLocal } from './local-time';

const NY = 'America/New_York';

describe('fromLocal', () => {
  it('converts ordinary wall times in winter and summer', () => {
    expect(fromLocal({ year: 2026, month: 1, day: 15, hour: 9, minute: 0 }, NY).toISOString()).toBe('2026-01-15T14:00:00.000Z');
    expect(fromLocal({ year: 2026, month: 7, day: 15, hour: 9, minute: 0 }, NY).toISOString()).toBe('2026-07-15T13:00:00.000Z');
    expect(fromLocal({ year: 2026, month: 7, day: 15, hour: 9, minute: 0 }, 'Asia/Kolkata').toISOString()).toBe('2026-07-15T03:30:00.000Z');
  });

  it('moves a time skipped by spring-forward to just after the jump', () => {
    // 2026-03-08: New York jumps from 02:00 EST to 03:00 EDT.
    const at = fromLocal({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, NY);
    expect(at.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(toLocal(at, NY)).toMatchObject({ hour: 3, minute: 30 });
  });

  it('takes the first of two occurrences at fall-back', () => {
    // 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(fromLocal({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, NY).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});
