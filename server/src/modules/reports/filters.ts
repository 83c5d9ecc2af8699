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
