// Open visits: visits that need a practitioner and have none yet (a care plan's new visit, one re-planning could not
// place). The schedule, the dashboard and the open visits page read the same list.
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components, operations } from '../../api/schema';

export type OpenVisit = components['schemas']['OpenVisit'];
export type OpenedFromBooking = operations['openVisitFromBooking']['responses'][201]['content']['application/json'];

export const OPEN_FROM_BOOKING_ERROR = 'An error has occurred. The visit was not made an open visit.';

/** Open visits from start_date to end_date (included; the server's defaults: today and 4 weeks on). */
export async function fetchOpenVisits(api: ApiClient, range: { startDate?: string; endDate?: string } = {}): Promise<OpenVisit[]> {
  const result = await api.GET('/open_visits', { params: { query: { start_date: range.startDate, end_date: range.endDate } } });
  return unwrap(result, 'An error has occurred. Could not load the open visits.').open_visits;
}

/** "Needs another practitioner": the visit is cancelled (in Cliniko too) and an open visit takes its place. */
export async function openVisitFromBooking(api: ApiClient, id: number, reason: string): Promise<OpenedFromBooking> {
  const result = await api.POST('/visits/{id}/open', { params: { path: { id } }, body: reason ? { reason } : {} });
  return unwrap(result, OPEN_FROM_BOOKING_ERROR);
}
