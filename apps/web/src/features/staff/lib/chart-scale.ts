/**
 * The y axis of a count chart: from 0 to a round maximum at or above the largest count, with
 * at most six whole-number ticks, 1, 2 or 5 times a power of ten apart.
 */
export function chartScale(largest: number): { max: number; ticks: number[] } {
  if (!(largest > 0)) return { max: 1, ticks: [0, 1] };
  const rough = largest / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const max = Math.ceil(largest / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= max; tick += step) ticks.push(tick);
  return { max, ticks };
}
