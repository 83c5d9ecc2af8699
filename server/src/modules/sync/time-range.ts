// Import and export ranges are whole days in the business's time zone; the PMS is asked in UTC instants.
import { Temporal } from 'temporal-polyfill';

// The range rule itself is the server's one day-range rule.
export { EARLIEST_DATE, LATEST_DATE, MAX_RANGE_DAYS, rangeProblem } from '../../lib/day-range';

/** [from, to): midnight of startDate to midnight after endDate in `timeZone`, as UTC ISO strings. */
export function dayRangeToUtc(startDate: string, endDate: string, timeZone: string): { from: string; to: string } {
  const start = Temporal.PlainDate.from(startDate).toZonedDateTime({ timeZone });
  const end = Temporal.PlainDate.from(endDate).add({ days: 1 }).toZonedDateTime({ timeZone });
  return { from: start.toInstant().toString(), to: end.toInstant().toString() };
}

export function todayIn(timeZone: string): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(timeZone);
}
