// The routes area's server data, one query-options factory per resource (record 0006).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchDayRoutes } from './api';

export const routeQueries = {
  /** Every day's routes: applying or removing a route invalidates this prefix. */
  all: () => ['routes'] as const,
  day: (api: ApiClient, date: string) => queryOptions({ queryKey: [...routeQueries.all(), date] as const, queryFn: () => fetchDayRoutes(api, date) }),
};
