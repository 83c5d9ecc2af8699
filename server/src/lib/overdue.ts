// The coordinator's desk's rules, in one place for the server (the dashboard's count of overdue visits)
// and the web app (the day schedule's banner, its marks and each lane's "Running N min late"), which imports this
// file as it is: pure, no imports, no Node or DOM.
//
// A visit's planned start is its arrival time (arrive_at: the route's or one set by hand), else its booked start.
// Overdue: not cancelled, no check-in yet (its state is not_started), and its planned start more than the business's
// overdue_after_minutes ago. A practitioner's lateness: how much later than planned they arrived at their current or
// last visit (the latest arrival of the day).

/** The business setting overdue_after_minutes: its default and the range it is kept in. */
export const OVERDUE_AFTER_MINUTES_DEFAULT = 15;
export const OVERDUE_AFTER_MINUTES_MIN = 1;
export const OVERDUE_AFTER_MINUTES_MAX = 240;

/** Why a value cannot be the setting (in words, naming the field), or null when it can. */
export function overdueAfterMinutesProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < OVERDUE_AFTER_MINUTES_MIN || value > OVERDUE_AFTER_MINUTES_MAX) {
    return `overdue_after_minutes: enter a whole number of minutes from ${OVERDUE_AFTER_MINUTES_MIN} to ${OVERDUE_AFTER_MINUTES_MAX}.`;
  }
  return null;
}

/** An instant as an ISO 8601 text (the API's), a Date (the database's) or epoch milliseconds. */
export type InstantLike = string | Date | number;

const msOf = (instant: InstantLike): number =>
  (typeof instant === 'number' ? instant : typeof instant === 'string' ? Date.parse(instant) : instant.getTime());

/** What the rules read of a visit. */
export interface DeskVisit {
  starts_at: InstantLike;
  arrive_at: InstantLike | null;
  /** The visit's state as its steps left it (not_started, on_my_way, arrived, done, could_not_attend). */
  visit_state: string;
  cancelled: boolean;
  /** When the practitioner tapped Arrived (since the visit was last reopened); null or absent before. */
  arrived_at?: InstantLike | null;
}

/** The planned start: the arrival time when the visit has one, else its booked start. */
export function plannedStartMs(visit: Pick<DeskVisit, 'starts_at' | 'arrive_at'>): number {
  return msOf(visit.arrive_at ?? visit.starts_at);
}

/**
 * Whole minutes the visit is past its planned start when it is overdue at `now` (more than `afterMinutes` past it,
 * with no check-in, not cancelled); null when it is not overdue.
 */
export function minutesOverdue(visit: DeskVisit, now: InstantLike, afterMinutes: number): number | null {
  if (visit.cancelled || visit.visit_state !== 'not_started') return null;
  const pastMs = msOf(now) - plannedStartMs(visit);
  if (pastMs <= afterMinutes * 60_000) return null;
  return Math.floor(pastMs / 60_000);
}

export function isOverdue(visit: DeskVisit, now: InstantLike, afterMinutes: number): boolean {
  return minutesOverdue(visit, now, afterMinutes) !== null;
}

/** Whole minutes a practitioner arrived later than planned at a visit (negative: early); null before they arrived. */
export function minutesArrivedLate(visit: DeskVisit): number | null {
  if (visit.cancelled || visit.arrived_at === null || visit.arrived_at === undefined) return null;
  return Math.floor((msOf(visit.arrived_at) - plannedStartMs(visit)) / 60_000);
}

export interface LaneLateness<V extends DeskVisit = DeskVisit> {
  /** Whole minutes later than planned (at least 1). */
  minutes: number;
  /** The visit they arrived at last. */
  visit: V;
}

/**
 * A practitioner's lateness now, from their day's visits: how late they arrived at their current or last visit (the
 * one with the latest arrival); null when they have arrived nowhere yet or arrived there on time or early.
 */
export function laneLateness<V extends DeskVisit>(visits: readonly V[]): LaneLateness<V> | null {
  let last: V | null = null;
  for (const visit of visits) {
    if (visit.cancelled || visit.arrived_at === null || visit.arrived_at === undefined) continue;
    if (!last || msOf(visit.arrived_at) > msOf(last.arrived_at!)) last = visit;
  }
  if (!last) return null;
  const minutes = minutesArrivedLate(last)!;
  return minutes >= 1 ? { minutes, visit: last } : null;
}
