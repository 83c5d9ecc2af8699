// The day-range rule of imports and exports: which calendar dates (yyyy-MM-dd, in the business's time zone) one
// job may cover. The sync form's machine refuses a range with these words before anything is sent.
import { Temporal } from 'temporal-polyfill';
import { MAX_RANGE_DAYS } from './dayRange';

export { MAX_RANGE_DAYS };
/** Automatic sync covers today..today+ahead_days, so days ahead stay one below the longest range (the contract's maximum). */
export const MAX_AHEAD_DAYS = MAX_RANGE_DAYS - 1;
/** The dates the server accepts in a range (a practice's bookings; 0001 is a typing slip). */
export const EARLIEST_DATE = '2000-01-01';
export const LATEST_DATE = '2099-12-31';

/** Days from start to end, both included. */
function daysInRange(start: string, end: string): number {
  return Temporal.PlainDate.from(start).until(Temporal.PlainDate.from(end), { largestUnit: 'days' }).days + 1;
}

/** Why a chosen range cannot be sent, in the user's words, or null. */
export function rangeProblem(start: string, end: string): string | null {
  if ([start, end].some((date) => date < EARLIEST_DATE || date > LATEST_DATE)) return 'Choose dates between 1 January 2000 and 31 December 2099.';
  const days = daysInRange(start, end);
  if (days < 1) return 'The end date must be on or after the start date.';
  if (days > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days: this range has ${days}.`;
  return null;
}
