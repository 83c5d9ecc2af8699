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

/** Seconds as shown: whole minutes. */
const shownSeconds = (seconds: number) => Math.max(0, Math.round(seconds / 60)) * 60;

/** Metres as formatDistance shows them: to 10 m under a kilometre, 100 m under 10 km, else whole kilometres. */
const shownMetres = (metres: number) => {
  const step = metres < 1000 ? 10 : metres < 10_000 ? 100 : 1000;
  return Math.round(metres / step) * step;
};

/** A difference of shown distances, to the metre it is exact to ("204.5 km" between "214 km" and "9.5 km"). */
function formatMetresExactly(metres: number): string {
  if (metres < 1000) return `${metres} m`;
  const decimals = metres % 1000 === 0 ? 0 : metres % 100 === 0 ? 1 : 2;
  return `${(metres / 1000).toFixed(decimals)} km`;
}

const KPI_FORMATS: ReadonlyArray<{ key: keyof DayKpis; label: string; format: (value: number) => string; shown: (value: number) => number; formatChange: (value: number) => string }> = [
  { key: 'travel_seconds', label: 'Travel time', format: formatMinutes, shown: shownSeconds, formatChange: formatMinutes },
  { key: 'travel_metres', label: 'Travel distance', format: formatDistance, shown: shownMetres, formatChange: formatMetresExactly },
  { key: 'idle_seconds', label: 'Idle time', format: formatMinutes, shown: shownSeconds, formatChange: formatMinutes },
  { key: 'outside_availability', label: 'Visits outside availability', format: count, shown: (value) => value, formatChange: count },
  { key: 'overtime_seconds', label: 'Overtime', format: formatMinutes, shown: shownSeconds, formatChange: formatMinutes },
  { key: 'unplaced', label: 'Visits not placed', format: count, shown: (value) => value, formatChange: count },
];

/**
 * Every KPI before → after; each of them is better lower. The change is the difference of the figures as shown, so
 * before, after and change always add up; a difference too small to show counts as unchanged.
 */
export function kpiRows(before: DayKpis, after: DayKpis): KpiRow[] {
  return KPI_FORMATS.map(({ key, label, format, shown, formatChange }) => {
    const difference = shown(after[key]) - shown(before[key]);
    const trend = difference === 0 ? 'same' : difference < 0 ? 'better' : 'worse';
    const change = trend === 'same' ? '' : `${difference < 0 ? '−' : '+'}${formatChange(Math.abs(difference))}`;
    return { key, label, before: format(before[key]), after: format(after[key]), trend, change };
  });
}

/** "Travel 6 h 12 min → 4 h 42 min": the headline of an applied proposal. */
export function travelHeadline(before: DayKpis, after: DayKpis): string {
  return `travel ${formatMinutes(before.travel_seconds)} → ${formatMinutes(after.travel_seconds)}`;
}
