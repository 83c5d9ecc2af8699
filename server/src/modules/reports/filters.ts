// What every report is asked for: an optional range of days in the business's time zone (both ends or neither, at
// most a year, under the server's one day-range rule) and the practitioners, appointment types and business
// locations whose visits count (none chosen: all).
import { invalid } from '../../http/errors';
import { rangeProblem } from '../../lib/day-range';

export const MAX_REPORT_DAYS = 366;

export interface ReportFilters {
  range: { startDate: string; endDate: string } | null;
  practitionerIds: number[];
  appointmentTypeIds: number[];
  businessLocationIds: number[];
}

export interface ReportQuery {
  start_date?: string;
  end_date?: string;
  practitioner_ids?: number[];
  appointment_type_ids?: number[];
  business_location_ids?: number[];
}

export function reportFiltersOf(query: ReportQuery): ReportFilters {
  const { start_date: startDate, end_date: endDate } = query;
  if ((startDate === undefined) !== (endDate === undefined)) {
    throw invalid(startDate === undefined ? 'start_date is required with end_date.' : 'end_date is required with start_date.');
  }
  if (startDate !== undefined && endDate !== undefined) {
    const problem = rangeProblem(startDate, endDate, MAX_REPORT_DAYS);
    if (problem) throw invalid(problem);
  }
  return {
    range: startDate !== undefined && endDate !== undefined ? { startDate, endDate } : null,
    practitionerIds: query.practitioner_ids ?? [],
    appointmentTypeIds: query.appointment_type_ids ?? [],
    businessLocationIds: query.business_location_ids ?? [],
  };
}

/**
 * A report table's page (ADR 0018): with per_page, the page-th page of that many rows; without it, every row (what
 * the CSV download asks for). The order is the report's sort column in `direction`, empty values last.
 */
export interface ReportPage {
  page: number;
  perPage: number | null;
  descending: boolean;
}

export function reportPageOf(query: { page?: number; per_page?: number; direction?: 'asc' | 'desc' }, defaultDirection: 'asc' | 'desc' = 'asc'): ReportPage {
  return { page: query.page ?? 1, perPage: query.per_page ?? null, descending: (query.direction ?? defaultDirection) === 'desc' };
}

/** The rows of the page of an already sorted list. */
export function pageSlice<Row>(rows: readonly Row[], page: ReportPage): Row[] {
  return page.perPage === null ? [...rows] : rows.slice((page.page - 1) * page.perPage, page.page * page.perPage);
}

/** The `meta` of a report answer: which page, its size (every row: the total) and how many rows in all. */
export function pageMeta(page: ReportPage, total: number): { page: number; per_page: number; total: number } {
  return page.perPage === null ? { page: 1, per_page: total, total } : { page: page.page, per_page: page.perPage, total };
}
