// The sync feature's server data, one query-options factory per resource (one key per piece of data).
// The reference lists the sync forms offer come from ../appointments/queries.ts.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchSyncSettings, listJobs, type JobKind } from './api';

export const syncSettingsQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['sync', 'settings'] as const, queryFn: () => fetchSyncSettings(api) }),
};

export const syncJobQueries = {
  /** Everything about one kind of job: its history pages and the latest completed one. */
  all: (kind: JobKind) => ['sync', 'jobs', kind] as const,
  page: (api: ApiClient, kind: JobKind, page: number, perPage: number) =>
    queryOptions({ queryKey: [...syncJobQueries.all(kind), page, perPage] as const, queryFn: () => listJobs(api, kind, page, perPage) }),
  /** The newest completed import among the latest hundred jobs (automatic imports run hourly), or null. */
  latestCompleteImport: (api: ApiClient) =>
    queryOptions({
      queryKey: [...syncJobQueries.all('import'), 'latest-complete'] as const,
      queryFn: async () => (await listJobs(api, 'import', 1, 100)).jobs.find((job) => job.status === 'COMPLETE') ?? null,
    }),
};
