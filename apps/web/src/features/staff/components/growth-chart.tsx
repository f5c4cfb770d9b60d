import { useId, useState, type PointerEvent } from 'react';
import type { GrowthPoint } from '@loop/shared/admin';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format-date';
import { useElementWidth } from '@/lib/use-element-width';
import { chartScale } from '../lib/chart-scale';

// docs/product.md#limits-and-timings: charts are 300 px tall.
const HEIGHT = 300;
const MARGIN = { top: 16, right: 16, bottom: 32, left: 48 };

/** "2026-03-14" is a calendar day: read it in the browser's zone, not as UTC midnight. */
function dayLabel(date: string): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return formatDate(new Date(year, month - 1, day));
}

/**
 * A line chart of a cumulative count per day: our own SVG, a few hundred bytes instead of a
 * charting library, and only in the admin chunk.
 */
export function GrowthChart({ title, points }: { title: string; points: GrowthPoint[] }) {
  const titleId = useId();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);

  const last = points.at(-1);
  const first = points[0];
  const summary =
    first && last
      ? `${title}: ${last.count.toLocaleString()} on ${dayLabel(last.date)}, from ${first.count.toLocaleString()} on ${dayLabel(first.date)}`
      : `${title}: no data yet`;

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <div ref={ref} className="relative" style={{ height: HEIGHT }}>
          {points.length === 0 ? (
            <p className="flex h-full items-center justify-center rounded-xl bg-muted text-muted-foreground">No data yet</p>
          ) : (
            width > 0 && <Plot width={width} points={points} summary={summary} active={active} onActive={setActive} />
          )}
        </div>
      </CardContent>
    </Card>
  );
}

interface PlotProps {
  width: number;
  points: GrowthPoint[];
  summary: string;
  active: number | null;
  onActive: (index: number | null) => void;
}

function Plot({ width, points, summary, active, onActive }: PlotProps) {
  const gradientId = useId();
  const innerWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const { max, ticks } = chartScale(Math.max(...points.map((p) => p.count)));
  // A single day sits at the right edge: the line leads up to today.
  const x = (index: number) => MARGIN.left + (points.length === 1 ? innerWidth : (index / (points.length - 1)) * innerWidth);
  const y = (count: number) => MARGIN.top + innerHeight - (count / max) * innerHeight;

  // A single day still draws a line: that count, across the whole width.
  const coordinates =
    points.length === 1
      ? [MARGIN.left, MARGIN.left + innerWidth].map((px) => [px, y(points[0]?.count ?? 0)] as const)
      : points.map((p, i) => [x(i), y(p.count)] as const);
  const line = coordinates.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join('');
  const left = coordinates[0]?.[0] ?? MARGIN.left;
  const right = coordinates.at(-1)?.[0] ?? MARGIN.left;
  const area = `${line}L${right.toFixed(1)},${y(0)}L${left.toFixed(1)},${y(0)}Z`;

  // About one date label per 110 px, always the first and the last day.
  const labelCount = Math.max(1, Math.min(points.length, Math.floor(innerWidth / 110)));
  const labelIndexes =
    labelCount === 1 || points.length === 1
      ? [points.length - 1]
      : [...new Set(Array.from({ length: labelCount }, (_, i) => Math.round((i / (labelCount - 1)) * (points.length - 1))))];

  function track(event: PointerEvent<SVGSVGElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const relative = (event.clientX - box.left - MARGIN.left) / innerWidth;
    const index = points.length === 1 ? 0 : Math.round(relative * (points.length - 1));
    onActive(Math.min(points.length - 1, Math.max(0, index)));
  }

  const activePoint = active === null ? undefined : points[active];
  return (
    <>
      <svg
        width={width}
        height={HEIGHT}
        role="img"
        aria-label={summary}
        className="touch-pan-y overflow-visible select-none"
        onPointerMove={track}
        onPointerDown={track}
        onPointerLeave={() => onActive(null)}
      >
        <defs>
          <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1">
            <stop offset="0%" stopColor="var(--color-primary)" stopOpacity={0.22} />
            <stop offset="100%" stopColor="var(--color-primary)" stopOpacity={0.02} />
          </linearGradient>
        </defs>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={MARGIN.left}
              x2={width - MARGIN.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke="var(--color-border)"
              strokeDasharray={tick === 0 ? undefined : '3 4'}
            />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-muted-foreground text-xs tabular-nums">
              {tick.toLocaleString()}
            </text>
          </g>
        ))}
        {labelIndexes.map((index) => {
          const point = points[index];
          if (!point) return null;
          const anchor = index === points.length - 1 ? 'end' : index === 0 ? 'start' : 'middle';
          return (
            <text key={index} x={x(index)} y={HEIGHT - 8} textAnchor={anchor} className="fill-muted-foreground text-xs">
              {dayLabel(point.date)}
            </text>
          );
        })}
        <path d={area} fill={`url(#${gradientId})`} />
        <path d={line} fill="none" stroke="var(--color-primary)" strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />
        {points.length <= 31 &&
          points.map((p, i) => (
            <circle key={p.date} cx={x(i)} cy={y(p.count)} r={3} fill="var(--color-card)" stroke="var(--color-primary)" strokeWidth={2} />
          ))}
        {activePoint && active !== null && (
          <g>
            <line x1={x(active)} x2={x(active)} y1={MARGIN.top} y2={y(0)} stroke="var(--color-muted-foreground)" strokeOpacity={0.4} />
            <circle cx={x(active)} cy={y(activePoint.count)} r={5} fill="var(--color-primary)" stroke="var(--color-card)" strokeWidth={2} />
          </g>
        )}
      </svg>
      {activePoint && active !== null && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-0 rounded-lg border bg-card px-3 py-1.5 text-sm shadow-md"
          style={{
            left: Math.min(Math.max(x(active), 70), width - 70),
            transform: 'translateX(-50%)',
          }}
        >
          <p className="font-semibold tabular-nums">{activePoint.count.toLocaleString()}</p>
          <p className="whitespace-nowrap text-muted-foreground">{dayLabel(activePoint.date)}</p>
        </div>
      )}
    </>
  );
}
