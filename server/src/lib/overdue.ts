// The coordinator's desk's rules, in one place for the server (the dashboard's count of overdue visits)
// and the web app (the day schedule's banner, its marks and each lane's "Running N min late"), which imports this
// file as it is: pure, no imports, no Node or DOM.
//
// A visit's planned start is its arrival time (arrive_at: the route's or one set by hand), else its booked start.
// A visit needs the desk's attention (deskAlert), each by the business's overdue_after_minutes:
// - not started: no check-in more than the setting after its planned start;
// - on the way: On my way for longer than the travel to it (from the later of its planned start and the step's time)
//   plus the setting — they should have arrived by then;
// - still there: Arrived longer ago than the visit's booked length plus the setting (lone-worker safety: nobody tapped
//   Done).
// A practitioner's lateness: how much later than planned they arrived at their current or last visit (the latest
// arrival of the day).

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
  /** When the practitioner tapped On my way (since the visit was last reopened); null or absent before. */
  on_my_way_at?: InstantLike | null;
  /** The booked end: with starts_at, the visit's booked length. */
  ends_at?: InstantLike | null;
  /** The travel to the visit from the visit before (the day's travel); absent when unknown (then none is allowed). */
  travel_seconds?: number | null;
}

/** The planned start: the arrival time when the visit has one, else its booked start. */
export function plannedStartMs(visit: Pick<DeskVisit, 'starts_at' | 'arrive_at'>): number {
  return msOf(visit.arrive_at ?? visit.starts_at);
}

/** What is wrong with a visit the desk should look at. */
export type DeskAlert =
  /** No check-in: `minutes` past its planned start. */
  | { kind: 'not_started'; minutes: number }
  /** On my way `minutes` ago and not arrived. */
  | { kind: 'on_the_way'; minutes: number }
  /** Arrived `minutes` ago and not done, for a visit booked for `bookedMinutes`. */
  | { kind: 'still_there'; minutes: number; bookedMinutes: number };

const wholeMinutes = (ms: number) => Math.floor(ms / 60_000);

/** What is wrong with the visit at `now` by the business's setting (see the rules at the top), or null. */
export function deskAlert(visit: DeskVisit, now: InstantLike, afterMinutes: number): DeskAlert | null {
  if (visit.cancelled) return null;
  const nowMs = msOf(now);
  const allowedMs = afterMinutes * 60_000;
  if (visit.visit_state === 'not_started') {
    const pastMs = nowMs - plannedStartMs(visit);
    return pastMs > allowedMs ? { kind: 'not_started', minutes: wholeMinutes(pastMs) } : null;
  }
  if (visit.visit_state === 'on_my_way') {
    const setOffMs = visit.on_my_way_at ? msOf(visit.on_my_way_at) : plannedStartMs(visit);
    const dueMs = Math.max(plannedStartMs(visit), setOffMs + (visit.travel_seconds ?? 0) * 1000);
    return nowMs - dueMs > allowedMs ? { kind: 'on_the_way', minutes: wholeMinutes(nowMs - setOffMs) } : null;
  }
  if (visit.visit_state === 'arrived' && visit.arrived_at && visit.ends_at) {
    const bookedMs = msOf(visit.ends_at) - msOf(visit.starts_at);
    const thereMs = nowMs - msOf(visit.arrived_at);
    return thereMs - bookedMs > allowedMs ? { kind: 'still_there', minutes: wholeMinutes(thereMs), bookedMinutes: wholeMinutes(bookedMs) } : null;
  }
  return null;
}

/** "40 min", "1 h 5 min", "2 h": a length of time in whole minutes. */
export function minutesWords(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

/**
 * The alert in words: "Mrs Lee: not started, 40 min late (Isla)", "Isla has been on the way to Mrs Lee for 52 min",
 * "Isla arrived at Mrs Lee 2 h 10 min ago, visit booked for 45 min".
 */
export function deskAlertWords(alert: DeskAlert, names: { client: string; practitioner: string }): string {
  switch (alert.kind) {
    case 'not_started': return `${names.client}: not started, ${minutesWords(alert.minutes)} late (${names.practitioner})`;
    case 'on_the_way': return `${names.practitioner} has been on the way to ${names.client} for ${minutesWords(alert.minutes)}`;
    case 'still_there': return `${names.practitioner} arrived at ${names.client} ${minutesWords(alert.minutes)} ago, visit booked for ${minutesWords(alert.bookedMinutes)}`;
  }
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
