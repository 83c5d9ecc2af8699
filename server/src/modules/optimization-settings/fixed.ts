// Only the future moves: days before today (in the business's time zone) are not optimised, and today a visit that
// has started or starts within the optimisation settings' fixed_before_minutes keeps its time and practitioner — in a
// run (kept as "started" in the problem) and by hand (move, insert, arrival time).
import { Temporal } from 'temporal-polyfill';
import { invalid } from '../../http/errors';
import type { OptimizationSettingsValues } from './presets';

export const PAST_DAY = 'Days before today cannot be optimised: their visits have happened.';

/** Today's date (yyyy-MM-dd) in a time zone. */
export const todayIn = (timeZone: string, now = Date.now()) =>
  Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(timeZone).toPlainDate().toString();

/** Refuses (422) optimising a day before today. */
export function checkNotPast(date: string, timeZone: string): void {
  if (date < todayIn(timeZone)) throw invalid(`date: ${PAST_DAY}`);
}

/** The instant (epoch ms) up to which visits are fixed: now + the setting. */
export const fixedUntil = (settings: Pick<OptimizationSettingsValues, 'fixed_before_minutes'>, now = Date.now()) =>
  now + settings.fixed_before_minutes * 60_000;

/** Whether a visit starting at `start` (its arrival, else its booked start) is fixed. */
export const isFixedStart = (start: Date, until: number) => start.getTime() <= until;

/** Whether the practitioner has recorded a step of the visit (set off, arrived, finished, could not attend). */
export const hasStarted = (visit: { visitState?: string }) => visit.visitState !== undefined && visit.visitState !== 'not_started';

/** Whether a visit is fixed: its practitioner has stepped it (set off, arrived, …) or it starts before `until`. */
export const isFixedVisit = (visit: { arrive_at: Date | null; starts_at: Date; visit_state: string }, until: number) =>
  hasStarted({ visitState: visit.visit_state }) || isFixedStart(visit.arrive_at ?? visit.starts_at, until);

export const fixedVisitMessage = (minutes: number) =>
  `This visit has started (or starts within ${minutes} minutes): its time and practitioner stay as they are.`;

export const fixedTimeMessage = (minutes: number) =>
  `starts_at: a visit cannot be moved to a time that has passed or is within ${minutes} minutes from now.`;
