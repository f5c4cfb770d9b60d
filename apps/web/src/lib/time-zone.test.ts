import { describe, expect, it } from 'vitest';
import { browserTimeZone, timeZoneLabel, timeZoneOptions } from './time-zone';

describe('time zones', () => {
  it('lists UTC first, then every zone the runtime knows, once each', () => {
    const zones = timeZoneOptions();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Lisbon');
    expect(new Set(zones).size).toBe(zones.length);
  });

  it("keeps a Loop's zone the runtime does not list", () => {
    expect(timeZoneOptions('Etc/UTC')[0]).toBe('Etc/UTC');
    expect(timeZoneOptions('Europe/Paris')).toBe(timeZoneOptions());
  });

  it('labels zones for people and reads the browser zone', () => {
    expect(timeZoneLabel('America/New_York')).toBe('America / New York');
    expect(browserTimeZone()).toMatch(/\w/);
  });
});
