// Import and export ranges are whole days in the business's time zone; the PMS is asked in UTC instants.
import { Temporal } from 'temporal-polyfill';

export const MAX_RANGE_DAYS = 62;
/** Dates a practice's bookings can plausibly have; anything else is a typing slip (0001, 20250) or a probe. */
export const EARLIEST_DATE = '2000-01-01';
export const LATEST_DATE = '2099-12-31';

/** [from, to): midnight of startDate to midnight after endDate in `timeZone`, as UTC ISO strings. */
export function dayRangeToUtc(startDate: string, endDate: string, timeZone: string): { from: string; to: string } {
  const start = Temporal.PlainDate.from(startDate).toZonedDateTime({ timeZone });
  const end = Temporal.PlainDate.from(endDate).add({ days: 1 }).toZonedDateTime({ timeZone });
  return { from: start.toInstant().toString(), to: end.toInstant().toString() };
}

export function todayIn(timeZone: string): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(timeZone);
}

/** Problems with a requested range, or null; messages name the fields. */
export function rangeProblem(startDate: string, endDate: string): string | null {
  for (const [field, value] of [['start_date', startDate], ['end_date', endDate]]) {
    if (value < EARLIEST_DATE || value > LATEST_DATE) return `${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${value}).`;
  }
  const start = Temporal.PlainDate.from(startDate);
  const end = Temporal.PlainDate.from(endDate);
  if (Temporal.PlainDate.compare(start, end) > 0) return 'end_date must be on or after start_date';
  const days = start.until(end, { largestUnit: 'days' }).days + 1;
  if (days > MAX_RANGE_DAYS) return `The date range can be at most ${MAX_RANGE_DAYS} days (got ${days}).`;
  return null;
}
