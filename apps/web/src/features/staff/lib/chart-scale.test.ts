import { describe, expect, it } from 'vitest';
import { chartScale } from './chart-scale';

describe('chartScale', () => {
  it('gives an empty or zero series a 0 to 1 axis', () => {
    expect(chartScale(0)).toEqual({ max: 1, ticks: [0, 1] });
    expect(chartScale(Number.NaN)).toEqual({ max: 1, ticks: [0, 1] });
  });

  it('uses whole steps for small counts', () => {
    expect(chartScale(1)).toEqual({ max: 1, ticks: [0, 1] });
    expect(chartScale(3)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
    expect(chartScale(7)).toEqual({ max: 8, ticks: [0, 2, 4, 6, 8] });
  });

  it('rounds up to a step of 1, 2 or 5 times a power of ten', () => {
    expect(chartScale(87)).toEqual({ max: 100, ticks: [0, 20, 40, 60, 80, 100] });
    expect(chartScale(10_000)).toEqual({ max: 10_000, ticks: [0, 2000, 4000, 6000, 8000, 10_000] });
    expect(chartScale(123_456)).toEqual({ max: 150_000, ticks: [0, 50_000, 100_000, 150_000] });
  });
});
