import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDate, formatDateTime, formatTime } from './format-date';

describe('date formatting', () => {
  it('writes a reminder time as a local clock time', () => {
    const expected = new Date(2000, 0, 1, 9, 5).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    expect(formatClockTime('09:05')).toBe(expected);
    expect(formatClockTime('23:55')).toMatch(/55/);
  });

  it('writes dates and date-times the way the browser does', () => {
    const iso = '2026-03-14T15:09:26.000Z';
    expect(formatDate(iso)).toBe(new Date(iso).toLocaleDateString());
    expect(formatDateTime(iso)).toContain(new Date(iso).toLocaleDateString());
    expect(formatTime(iso)).toBe(new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }));
  });
});
