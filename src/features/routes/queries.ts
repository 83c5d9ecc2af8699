// The routes feature's server data, one query-options factory per resource (record 0006): a day's applied routes
// and the optimisation settings. Appointments and practitioners are read through the appointments feature's keys.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchOptimizationSettings, listRoutes } from './api';

export const routeQueries = {
  /** Every day's routes. */
  all: () => ['routes'] as const,
  day: (api: ApiClient, date: string) => queryOptions({ queryKey: [...routeQueries.all(), date] as const, queryFn: () => listRoutes(api, date) }),
};

export const optimizationSettingsQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['optimization_settings'] as const, queryFn: () => fetchOptimizationSettings(api) }),
};
