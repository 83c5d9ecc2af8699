// What every report keeps in the address (shareable, and the same after a reload): its range of days, with the
// presets a manager reaches for, and the visit filters. The range is days in the business's time zone, at most the
// server's longest report range.
import { Temporal } from 'temporal-polyfill';
import { toRequestDate } from '../../lib/dates';
import { urlParam, type UrlDateRange } from '../../lib/urlState';
import type { DateRangePreset, DayRange } from '../../ui/DateRangePicker';
import { weekStartOf, type WeekStart } from '../../app/businessDefaults';
import type { ReportQuery } from './api';

/** The server's longest report range (server/src/modules/reports/filters.ts). */
export const MAX_REPORT_DAYS = 366;

const weekOf = (day: Temporal.PlainDate, weekStart: WeekStart): DayRange => {
  const first = weekStartOf(day, weekStart);
  return { start: first, end: first.add({ days: 6 }) };
};
const monthOf = (day: Temporal.PlainDate): DayRange => {
  const first = day.with({ day: 1 });
  return { start: first, end: first.with({ day: first.daysInMonth }) };
};

/** Weeks start on the business's week start (Account settings). */
export const REPORT_PRESETS: readonly DateRangePreset[] = [
  { label: 'Today', range: (today) => ({ start: today, end: today }) },
  { label: 'This week', range: weekOf },
  { label: 'Last week', range: (today, weekStart) => weekOf(today.subtract({ weeks: 1 }), weekStart) },
  { label: 'This month', range: monthOf },
  { label: 'Last month', range: (today) => monthOf(today.subtract({ months: 1 })) },
];

/** For a report that looks ahead (what to fix before the visits). */
export const UPCOMING_PRESETS: readonly DateRangePreset[] = [
  { label: 'Today', range: (today) => ({ start: today, end: today }) },
  { label: 'This week', range: weekOf },
  { label: 'Next two weeks', range: (today) => ({ start: today, end: today.add({ days: 13 }) }) },
  { label: 'This month', range: monthOf },
  { label: 'Next month', range: (today) => monthOf(today.add({ months: 1 })) },
];

/** The address's keys of a report: `start`/`end`, `practitioner`, `type`, `location`. */
export function reportFilterState(defaultRange: UrlDateRange) {
  return {
    range: urlParam.dateRange(defaultRange, { maxDays: MAX_REPORT_DAYS }),
    practitioner: urlParam.ids(),
    type: urlParam.ids(),
    location: urlParam.ids(),
  };
}

export interface ReportFilterValue {
  range: DayRange | null;
  practitioner: number[];
  type: number[];
  location: number[];
}

/** How many of the visit filters narrow the report. */
export const activeFilterCount = (filters: Pick<ReportFilterValue, 'practitioner' | 'type' | 'location'>) =>
  [filters.practitioner, filters.type, filters.location].filter((ids) => ids.length > 0).length;

/** The report's request for those filters (no range: the report's own default period). */
export function reportQueryOf(filters: ReportFilterValue): ReportQuery {
  return {
    ...(filters.range ? { start_date: toRequestDate(filters.range.start), end_date: toRequestDate(filters.range.end) } : {}),
    ...(filters.practitioner.length ? { practitioner_ids: filters.practitioner } : {}),
    ...(filters.type.length ? { appointment_type_ids: filters.type } : {}),
    ...(filters.location.length ? { business_location_ids: filters.location } : {}),
  };
}

/** A server-paged report table's page sizes (the appointments list's). */
export const REPORT_PAGE_SIZES = [10, 20, 50, 100] as const;
export type ReportPageSize = (typeof REPORT_PAGE_SIZES)[number];

/** The address's keys of a server-paged table: `sort`, `direction`, `page`, `per_page` (as the lists keep them). */
export function reportPageState<const Sort extends string>(sorts: readonly Sort[], sort: Sort, direction: 'asc' | 'desc' = 'asc') {
  return {
    sort: urlParam.oneOf(sorts, sort),
    direction: urlParam.oneOf(['asc', 'desc'] as const, direction),
    page: urlParam.integer(1, { max: 100_000 }),
    per_page: urlParam.oneOf(REPORT_PAGE_SIZES, 50),
  };
}

interface PageState<Sort extends string> { sort: Sort; direction: 'asc' | 'desc'; page: number; per_page: ReportPageSize }

/**
 * The table's part of the request (`page`) and what the table needs to show and change it (`paging`, without the
 * total and the CSV's rows, which come from the answer and the report's call). A new order or page size returns to
 * page 1; so must a new filter (the caller's).
 */
export function reportPaging<Sort extends string>(
  state: PageState<Sort>, sorts: readonly Sort[], setState: (patch: Partial<PageState<Sort>>) => void,
) {
  return {
    order: { sort: state.sort, direction: state.direction },
    page: { sort: state.sort, direction: state.direction, page: state.page, per_page: state.per_page },
    paging: {
      sortKeys: sorts, sort: state.sort, direction: state.direction, page: state.page, perPage: state.per_page,
      onSortChange: (sort: string, direction: 'asc' | 'desc') => setState({ sort: sort as Sort, direction, page: 1 }),
      onPageChange: (page: number) => setState({ page }),
      onPerPageChange: (perPage: ReportPageSize) => setState({ per_page: perPage, page: 1 }),
    },
  };
}
