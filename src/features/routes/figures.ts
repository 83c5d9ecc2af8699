// A proposal's before → after KPIs in words (durations and distances as the run sheet says them).
import type { components } from '../../api/schema';
import { formatDistance, formatMinutes } from './dayPlan';

type DayKpis = components['schemas']['DayKpis'];

export interface KpiRow {
  key: keyof DayKpis;
  label: string;
  before: string;
  after: string;
  /** better: the plan improves it; worse: it gets worse; same: unchanged. */
  trend: 'better' | 'worse' | 'same';
  /** The change in words ("−1 h 30 min", "+2"), empty when unchanged. */
  change: string;
}

const count = (value: number) => String(value);

const KPI_FORMATS: ReadonlyArray<{ key: keyof DayKpis; label: string; format: (value: number) => string }> = [
  { key: 'travel_seconds', label: 'Travel time', format: formatMinutes },
  { key: 'travel_metres', label: 'Travel distance', format: formatDistance },
  { key: 'idle_seconds', label: 'Idle time', format: formatMinutes },
  { key: 'outside_availability', label: 'Visits outside availability', format: count },
  { key: 'overtime_seconds', label: 'Overtime', format: formatMinutes },
  { key: 'unplaced', label: 'Visits not placed', format: count },
];

/** Every KPI before → after; each of them is better lower. Differences below what is shown count as unchanged. */
export function kpiRows(before: DayKpis, after: DayKpis): KpiRow[] {
  return KPI_FORMATS.map(({ key, label, format }) => {
    const shownBefore = format(before[key]);
    const shownAfter = format(after[key]);
    const difference = after[key] - before[key];
    const trend = shownBefore === shownAfter || difference === 0 ? 'same' : difference < 0 ? 'better' : 'worse';
    const change = trend === 'same' ? '' : `${difference < 0 ? '−' : '+'}${format(Math.abs(difference))}`;
    return { key, label, before: shownBefore, after: shownAfter, trend, change };
  });
}

/** "Travel 6 h 12 min → 4 h 42 min": the headline of an applied proposal. */
export function travelHeadline(before: DayKpis, after: DayKpis): string {
  return `travel ${formatMinutes(before.travel_seconds)} → ${formatMinutes(after.travel_seconds)}`;
}
