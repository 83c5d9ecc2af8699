// The one rule for a range of whole days (yyyy-MM-dd, both ends included) that the API accepts: the appointments
// list and the import and export ranges, and the automatic sync's days ahead, are all held to it; reports, which look
// back over longer periods, to the same rule with their own longest range.
import { Temporal } from 'temporal-polyfill';

export const MAX_RANGE_DAYS = 62;
/** Dates a practice's bookings can plausibly have; anything else is a typing slip (0001, 20250) or a probe. */
export const EARLIEST_DATE = '2000-01-01';
export const LATEST_DATE = '2099-12-31';

/** What is wrong with one requested day (a real date written yyyy-MM-dd, within the dates above), or null. */
export function dateProblem(value: string, field: string): string | null {
  let written: string;
  try {
    written = Temporal.PlainDate.from(value, { overflow: 'reject' }).toString();
  } catch {
    return `${field} must be a date written yyyy-MM-dd (got "${value}").`;
  }
  if (written < EARLIEST_DATE || written > LATEST_DATE) return `${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${written}).`;
  return null;
}

/** What is wrong with a requested range, or null; messages name the fields and are shown to the user as they are. */
export function rangeProblem(startDate: string, endDate: string, maxDays = MAX_RANGE_DAYS): string | null {
  let start: Temporal.PlainDate;
  let end: Temporal.PlainDate;
  try {
    start = Temporal.PlainDate.from(startDate, { overflow: 'reject' });
    end = Temporal.PlainDate.from(endDate, { overflow: 'reject' });
  } catch {
    return 'start_date and end_date must be dates written yyyy-MM-dd.';
  }
  for (const [field, value] of [['start_date', startDate], ['end_date', endDate]]) {
    if (value < EARLIEST_DATE || value > LATEST_DATE) return `${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${value}).`;
  }
  if (Temporal.PlainDate.compare(start, end) > 0) return 'end_date must be on or after start_date';
  const days = start.until(end, { largestUnit: 'days' }).days + 1;
  if (days > maxDays) return `The date range is limited to ${maxDays} days (asked for ${days}): choose at most ${maxDays} days.`;
  return null;
}
