// The figures of a day's routes in words: durations, distances and the before → after KPIs of a proposal.
import type { components } from '../../api/schema';

type DayKpis = components['schemas']['DayKpis'];

/** "0 min", "45 min", "2 h", "4 h 42 min" (rounded to the minute). */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(Math.max(0, seconds) / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** "850 m" below a kilometre, else "12.3 km" (one decimal below 100 km, whole kilometres above). */
export function formatDistance(metres: number): string {
  const value = Math.max(0, metres);
  if (value < 1000) return `${Math.round(value)} m`;
  const km = value / 1000;
  return km < 100 ? `${km.toFixed(1)} km` : `${Math.round(km)} km`;
}

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
  { key: 'travel_seconds', label: 'Travel time', format: formatDuration },
  { key: 'travel_metres', label: 'Travel distance', format: formatDistance },
  { key: 'idle_seconds', label: 'Idle time', format: formatDuration },
  { key: 'outside_availability', label: 'Visits outside availability', format: count },
  { key: 'overtime_seconds', label: 'Overtime', format: formatDuration },
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
  return `travel ${formatDuration(before.travel_seconds)} → ${formatDuration(after.travel_seconds)}`;
}
