// The longest range of days the API accepts (appointment lists, imports and exports), first and last day included.
// The server's rule is server/src/lib/day-range.ts; src/features/sync/dateRange.test.ts checks the two agree.
export const MAX_RANGE_DAYS = 62;
