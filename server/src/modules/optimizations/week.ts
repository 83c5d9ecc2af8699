// Weeks that fit real rosters (issue 35): what a run's day says about who it plans — a day with nothing to plan, the
// practitioners it calls in on a day they had nothing booked (only when the day is worth opening, the optimisation
// settings' call-in threshold), those it does not plan (no working hours that day) — and the distinct practitioners
// each client sees over the run's days, before and after. Pure.
import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '../../http/contract';
import type { OptimizationSettingsValues } from '../optimization-settings';
import type { PractitionerDay } from '../practitioners';
import type { DayVisit } from '../schedule';
import type { OptimizationMode, Reader } from './problem';
import { workingSeconds, type Lane, type Proposal, type ProposalLane } from './proposal';

export type CalledIn = Schemas['CalledInPractitioner'];
export type NotRouted = Schemas['NotRoutedPractitioner'];
export type RunContinuity = Schemas['RunContinuity'];

/** "Saturday 26": a day of a run of at most a week, as the proposal names it. */
export const shortDay = (date: string) => Temporal.PlainDate.from(date).toLocaleString('en-AU', { weekday: 'long', day: 'numeric' });

/** "3 h 10", "45 min": a working day's length. */
export function hoursAndMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${String(minutes % 60).padStart(2, '0')}` : ''}`;
}

const visitsWord = (count: number) => `${count} visit${count === 1 ? '' : 's'}`;

/**
 * Whether a day is worth opening for a practitioner who had nothing booked: at least call_in_min_visits visits, or
 * at least call_in_min_minutes of working time (when that is not 0).
 */
export function worthOpening(lane: Lane, settings: Pick<OptimizationSettingsValues, 'call_in_min_visits' | 'call_in_min_minutes'>): boolean {
  if (lane.stops.length >= settings.call_in_min_visits) return true;
  return settings.call_in_min_minutes > 0 && (workingSeconds(lane) ?? 0) >= settings.call_in_min_minutes * 60;
}

/** The practitioners called in whom the plan gives a day below the call-in threshold (they stay at home in the next search). */
export const calledInBelowThreshold = (
  lanes: readonly ProposalLane[], callIns: ReadonlySet<number>, settings: Pick<OptimizationSettingsValues, 'call_in_min_visits' | 'call_in_min_minutes'>,
): number[] => lanes.filter((lane) => callIns.has(lane.practitioner_id) && lane.after.stops.length > 0 && !worthOpening(lane.after, settings))
  .map((lane) => lane.practitioner_id);

/** Each practitioner the proposal calls in on `date` (had nothing booked, now has visits), in words. */
export function calledInOf(lanes: readonly ProposalLane[], callIns: ReadonlySet<number>, date: string): CalledIn[] {
  return lanes.filter((lane) => callIns.has(lane.practitioner_id) && lane.after.stops.length > 0).map((lane) => {
    const working = Math.round(workingSeconds(lane.after) ?? 0);
    return {
      practitioner_id: lane.practitioner_id, practitioner_name: lane.practitioner_name, visits: lane.after.stops.length, working_seconds: working,
      message: `Calls in ${lane.practitioner_name} on ${shortDay(date)}: ${visitsWord(lane.after.stops.length)}, ${hoursAndMinutes(working)}.`,
    };
  });
}

/** The practitioners with visits on `date` whom the run does not plan (no working hours that day), in words for `reader`. */
export function notRoutedOf(notRouted: readonly PractitionerDay[], runVisits: readonly DayVisit[], date: string, reader: Reader): NotRouted[] {
  const weekday = Temporal.PlainDate.from(date).toLocaleString('en-AU', { weekday: 'long' });
  return notRouted.map((day) => {
    const visits = runVisits.filter((visit) => visit.practitionerId === day.practitionerId).length;
    const fix = reader === 'admin' ? 'set their hours in Settings → Practitioners to plan them' : 'an administrator can set their hours in Settings → Practitioners';
    return {
      practitioner_id: day.practitionerId, practitioner_name: day.name, visits,
      message: `${day.name} has ${visitsWord(visits)} on ${shortDay(date)} but no working hours on ${weekday}s: they stay as they are (${fix}).`,
    };
  });
}

/**
 * The proposal of a day with nothing to plan: no visits of the chosen practitioners, or nobody chosen works that day
 * (those with visits but no hours are `notRouted`). Apply changes nothing that day.
 */
export function emptyDayProposal(
  { date, timeZone, mode, travelName, nobodyWorks, notRouted }: {
    date: string; timeZone: string; mode: OptimizationMode; travelName: string; nobodyWorks: boolean; notRouted: NotRouted[];
  },
): Proposal {
  const none = { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, outside_availability: 0, overtime_seconds: 0, working_spread_seconds: 0, unplaced: 0 };
  return {
    date, time_zone: timeZone, mode,
    kpis: { before: { ...none }, after: { ...none } },
    lanes: [], changes: [], unplaced: [],
    search: { elapsed_ms: 0, iterations: 0, stopped_by: 'iterations', travel: travelName, searches: 1 },
    empty_day: nobodyWorks
      ? { reason: 'nobody-works', message: `${shortDay(date)}: nobody works.` }
      : { reason: 'no-visits', message: `${shortDay(date)}: no visits.` },
    called_in: [],
    not_routed: notRouted,
  };
}

/** [client, practitioner as booked, practitioner as proposed] for each of a day's visits with a client. */
export type VisitCarers = [number, number, number];

/** Each visit of the run's practitioners that day with its client's practitioner before and after the proposal. */
export function carersOfDay(runVisits: readonly DayVisit[], proposal: Proposal): VisitCarers[] {
  const plannedWith = new Map(proposal.lanes.flatMap((lane) => lane.after.stops.map((stop) => [stop.appointment_id, lane.practitioner_id] as const)));
  return runVisits.flatMap((visit) => (visit.clientId === null ? []
    : [[visit.clientId, visit.practitionerId, plannedWith.get(visit.id) ?? visit.practitionerId] as VisitCarers]));
}

/** The distinct practitioners each client sees over the run's days, before and after (days stored before it: null). */
export function continuityOf(days: readonly { carers?: VisitCarers[] }[]): RunContinuity | null {
  if (days.length === 0 || days.some((day) => !day.carers)) return null;
  const before = new Map<number, Set<number>>();
  const after = new Map<number, Set<number>>();
  for (const [client, was, will] of days.flatMap((day) => day.carers!)) {
    before.set(client, (before.get(client) ?? new Set()).add(was));
    after.set(client, (after.get(client) ?? new Set()).add(will));
  }
  const clients = [...before.keys()];
  const count = (of: Map<number, Set<number>>) => clients.reduce((total, client) => total + of.get(client)!.size, 0);
  const mean = (total: number) => (clients.length ? Math.round((total / clients.length) * 100) / 100 : 0);
  const [carersBefore, carersAfter] = [count(before), count(after)];
  return {
    clients: clients.length, carers_before: carersBefore, carers_after: carersAfter,
    mean_carers_before: mean(carersBefore), mean_carers_after: mean(carersAfter),
    clients_with_fewer_carers: clients.filter((client) => after.get(client)!.size < before.get(client)!.size).length,
    clients_with_more_carers: clients.filter((client) => after.get(client)!.size > before.get(client)!.size).length,
  };
}
