// The day's routes as server data, one query-options factory per resource (record 0006): a day's applied routes, the
// travel between points and the day's problems by the rule book. Appointments and practitioners are read through
// ../appointments/queries, the optimisation settings through ../optimization-settings/queries.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { appointmentQueries } from '../appointments/queries';
import { fetchDayIssues, fetchDayRoutes, fetchDayTravel, measureTravel, type LatLng } from './api';

export const routeQueries = {
  /** Every day's routes: applying or removing a route invalidates this prefix. */
  all: () => ['routes'] as const,
  day: (api: ApiClient, date: string) => queryOptions({ queryKey: [...routeQueries.all(), date] as const, queryFn: () => fetchDayRoutes(api, date) }),
  /** The day as it is now (travel warnings, legs, leave and back times): under the appointment lists' prefix, so any change to a visit refreshes it. */
  dayTravel: (api: ApiClient, date: string) =>
    queryOptions({ queryKey: [...appointmentQueries.lists(), 'travel', date] as const, queryFn: () => fetchDayTravel(api, date) }),
  /** The day's problems by the rule book, as it is now: under the appointment lists' prefix too, for the same reason. */
  dayIssues: (api: ApiClient, date: string) =>
    queryOptions({ queryKey: [...appointmentQueries.lists(), 'issues', date] as const, queryFn: () => fetchDayIssues(api, date) }),
};

/** Travel between points never changes for the same points, so an answer is kept for the session. */
export const travelQueries = {
  between: (api: ApiClient, points: readonly LatLng[], geometry: boolean) =>
    queryOptions({
      queryKey: ['travel', points.map(({ lat, lng }) => `${lat},${lng}`).join(';'), geometry] as const,
      queryFn: () => measureTravel(api, points, geometry),
      staleTime: Infinity,
      enabled: points.length > 1,
    }),
};
