// Which clients a re-plan tells their new arrival, in one place for the server (Apply's ETA
// messages) and the web app (the proposal's "Tell the clients" list), which imports this file as it is: pure, no
// imports, no Node or DOM.
//
// A visit's arrival told before is its arrival time, else its booked start. A client is told when the re-plan moves
// that arrival by at least the business's eta_replan_minutes (either way), or gives the visit another practitioner
// however little it moves, and the new arrival is still ahead.

/** The business setting eta_replan_minutes: its default and the range it is kept in. */
export const ETA_REPLAN_MINUTES_DEFAULT = 15;
export const ETA_REPLAN_MINUTES_MIN = 5;
export const ETA_REPLAN_MINUTES_MAX = 240;

/** Why a value cannot be the setting (in words, naming the field), or null when it can. */
export function etaReplanMinutesProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < ETA_REPLAN_MINUTES_MIN || value > ETA_REPLAN_MINUTES_MAX) {
    return `eta_replan_minutes: enter a whole number of minutes from ${ETA_REPLAN_MINUTES_MIN} to ${ETA_REPLAN_MINUTES_MAX}.`;
  }
  return null;
}

/** An instant as an ISO 8601 text (the API's), a Date (the database's) or epoch milliseconds. */
type InstantLike = string | Date | number;
const msOf = (instant: InstantLike): number =>
  (typeof instant === 'number' ? instant : typeof instant === 'string' ? Date.parse(instant) : instant.getTime());

/** A visit's arrival before and after a re-plan. */
export interface ArrivalChange {
  /** The arrival the client knew: the visit's arrival time, else its booked start. */
  before: InstantLike;
  after: InstantLike;
  /** The visit's practitioner before and after (ids); left out, the practitioner is taken to stay. */
  practitionerBefore?: number | null;
  practitionerAfter?: number | null;
}

/** Whether the client of this change is told its new arrival (see the file's head). */
export function isToldArrivalChange(change: ArrivalChange, minutes: number, now: InstantLike): boolean {
  const after = msOf(change.after);
  const newPractitioner = (change.practitionerBefore ?? null) !== (change.practitionerAfter ?? null);
  return (newPractitioner || Math.abs(after - msOf(change.before)) >= minutes * 60_000) && after > msOf(now);
}
