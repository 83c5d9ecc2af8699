// A proposal's before → after KPIs in words (durations and distances as the run sheet says them).
import type { components } from '../../../api/schema';
import { formatDistance, formatMinutes } from '../../../entities/routes/dayPlan';

type DayKpis = components['schemas']['DayKpis'];
type Proposal = components['schemas']['OptimizationProposal'];

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
  // The longest less the shortest working day among the practitioners with visits.
  { key: 'working_spread_seconds', label: 'Spread of working time', format: formatMinutes, shown: shownSeconds, formatChange: formatMinutes },
  { key: 'unplaced', label: 'Visits not placed', format: count, shown: (value) => value, formatChange: count },
  // Reassigning: continuity's side of the trade against travel.
  { key: 'away_from_usual', label: 'Visits away from their usual practitioner', format: count, shown: (value) => value, formatChange: count },
];

/**
 * Every KPI before → after; each of them is better lower. The change is the difference of the figures as shown, so
 * before, after and change always add up; a difference too small to show counts as unchanged. A figure the proposal
 * does not have (one it predates, or visits away from their usual practitioner when keeping practitioners) is left out.
 */
export function kpiRows(before: DayKpis, after: DayKpis): KpiRow[] {
  return KPI_FORMATS.flatMap(({ key, label, format, shown, formatChange }) => {
    const [was, is] = [before[key], after[key]];
    if (was === undefined || is === undefined) return [];
    const difference = shown(is) - shown(was);
    const trend = difference === 0 ? 'same' : difference < 0 ? 'better' : 'worse';
    const change = trend === 'same' ? '' : `${difference < 0 ? '−' : '+'}${formatChange(Math.abs(difference))}`;
    return [{ key, label, before: format(was), after: format(is), trend, change }];
  });
}

/** "Travel 6 h 12 min → 4 h 42 min": the headline of an applied proposal. */
export function travelHeadline(before: DayKpis, after: DayKpis): string {
  return `travel ${formatMinutes(before.travel_seconds)} → ${formatMinutes(after.travel_seconds)}`;
}

/**
 * A run's days' figures together (week totals), before or after: each figure added up, except the spread of working
 * time, which is of the days together: the most less the fewest hours a practitioner with visits works over the days.
 */
export function totalKpis(days: readonly Proposal[], side: 'before' | 'after'): DayKpis {
  const sum = (key: Exclude<keyof DayKpis, 'working_spread_seconds' | 'away_from_usual'>) => days.reduce((total, day) => total + day.kpis[side][key], 0);
  const away = days.map((day) => day.kpis[side].away_from_usual);
  const worked = new Map<number, number>();
  for (const lane of days.flatMap((day) => day.lanes)) {
    const { stops, depart_at, end_at } = lane[side];
    if (!stops.length || !depart_at || !end_at) continue;
    worked.set(lane.practitioner_id, (worked.get(lane.practitioner_id) ?? 0) + (Date.parse(end_at) - Date.parse(depart_at)) / 1000);
  }
  return {
    travel_seconds: sum('travel_seconds'), travel_metres: sum('travel_metres'), idle_seconds: sum('idle_seconds'),
    outside_availability: sum('outside_availability'), overtime_seconds: sum('overtime_seconds'), unplaced: sum('unplaced'),
    working_spread_seconds: worked.size ? Math.round(Math.max(...worked.values()) - Math.min(...worked.values())) : 0,
    ...(away.every((count) => count !== undefined) ? { away_from_usual: away.reduce((total, count) => total + count, 0) } : {}),
  };
}

type Change = Proposal['changes'][number];
export type ChangeReasonKind = NonNullable<Change['reasons']>[number]['kind'];

/** Each reason's name in the changes table's filter. */
export const REASON_LABELS: Record<ChangeReasonKind, string> = {
  travel: 'Travel saved',
  'rule-fixed': 'A rule fixed',
  continuity: 'Continuity',
  leave: 'Leave',
  'preferred-practitioner': 'Preferred practitioner',
  'preferred-not-kept': 'Preferred practitioner not kept',
  'agreed-time': 'Closer to the agreed time',
  'lane-order': "The lane's new order",
};

export type ChangeSort = 'moved' | 'arrival' | 'client' | 'practitioner';
export type ChangeFilter = 'all' | 'moved-30' | 'moved-60' | 'practitioner-changed';

/** Minutes from the agreed time, whichever way (0 for a proposal made before they were counted). */
export const minutesMoved = (change: Change) => Math.abs(change.minutes_moved ?? 0);

/** "+45 min" later, "−1 h 30 min" earlier than the agreed time, "on time" when it keeps it. */
export function movedText(change: Change): string {
  const minutes = change.minutes_moved ?? 0;
  if (minutes === 0) return 'on time';
  return `${minutes > 0 ? '+' : '−'}${formatMinutes(Math.abs(minutes) * 60)}`;
}

/**
 * The changes as the table shows them: those that pass the filter and have the reason (null: any), sorted by the
 * column, ascending or not. Ties keep the proposal's order (the biggest moves first, then by new arrival).
 */
export function changesShown(changes: readonly Change[], { sort, ascending, filter, reason }: {
  sort: ChangeSort; ascending: boolean; filter: ChangeFilter; reason: ChangeReasonKind | null;
}): Change[] {
  const kept = changes.filter((change) => {
    if (filter === 'moved-30' && minutesMoved(change) < 30) return false;
    if (filter === 'moved-60' && minutesMoved(change) < 60) return false;
    if (filter === 'practitioner-changed' && change.old_practitioner_id === change.new_practitioner_id) return false;
    return reason === null || (change.reasons ?? []).some((candidate) => candidate.kind === reason);
  });
  const compare: Record<ChangeSort, (a: Change, b: Change) => number> = {
    moved: (a, b) => minutesMoved(a) - minutesMoved(b),
    arrival: (a, b) => Date.parse(a.new_arrive_at) - Date.parse(b.new_arrive_at),
    client: (a, b) => (a.client_name ?? '').localeCompare(b.client_name ?? ''),
    practitioner: (a, b) => a.new_practitioner_name.localeCompare(b.new_practitioner_name),
  };
  const order = new Map(changes.map((change, index) => [change, index]));
  return kept.sort((a, b) => (ascending ? 1 : -1) * compare[sort](a, b) || order.get(a)! - order.get(b)!);
}
