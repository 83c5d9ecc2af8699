// The sync feature's server data, one query-options factory per resource (one key per piece of data).
// The reference lists the sync forms offer come from ../appointments/queries.ts.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { listJobs, type JobKind, type SyncJobRequest } from '../../api/jobs';
import { fetchExportPreview, fetchSyncSettings } from './api';

export const syncSettingsQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['sync', 'settings'] as const, queryFn: () => fetchSyncSettings(api) }),
};

export const syncJobQueries = {
  /** Everything about one kind of job: its history pages. */
  all: (kind: JobKind) => ['sync', 'jobs', kind] as const,
  page: (api: ApiClient, kind: JobKind, page: number, perPage: number) =>
    queryOptions({ queryKey: [...syncJobQueries.all(kind), page, perPage] as const, queryFn: () => listJobs(api, kind, page, perPage) }),
  /** The newest completed import among the latest hundred jobs (automatic imports run hourly), or null: read from that page. */
  latestCompleteImport: (api: ApiClient) =>
    queryOptions({
      ...syncJobQueries.page(api, 'import', 1, 100),
      select: ({ jobs }) => jobs.find((job) => job.status === 'COMPLETE') ?? null,
    }),
};

export const exportPreviewQueries = {
  /** Read afresh each time an export is confirmed: the day may have changed since. */
  of: (api: ApiClient, request: SyncJobRequest) =>
    queryOptions({ queryKey: ['sync', 'export-preview', request] as const, queryFn: () => fetchExportPreview(api, request), staleTime: 0, gcTime: 0 }),
};
