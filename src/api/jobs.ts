// Import and export jobs, typed by the contract: creating one and following it (the sync machines' default
// effects), their history pages and cancelling one. Failures are thrown as ApiError with the server's message, else a fallback sentence.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

type Schemas = components['schemas'];
export type JobKind = 'import' | 'export';
export type JobStatus = Schemas['JobStatus'];
export type ImportJob = Schemas['Import'];
export type ExportJob = Schemas['Export'];
export type SyncJob = ImportJob | ExportJob;
export type SyncJobRequest = Schemas['SyncJobRequest'];
type PageMeta = Schemas['PageMeta'];

export const CREATE_ERRORS: Record<JobKind, string> = {
  import: 'An error has occurred. Could not create import.',
  export: 'An error has occurred. Could not create export.',
};

export const POLL_ERRORS: Record<JobKind, string> = {
  import: 'An error has occurred. Could not load the import status.',
  export: 'An error has occurred. Could not load the export status.',
};

/** How often a job the user is watching (an import, an export, an optimisation run) is read again while it runs. */
export const JOB_POLL_INTERVAL_MS = 1000;

const ACTIVE_STATUSES: readonly JobStatus[] = ['PENDING', 'INPROGRESS'];
export const isActiveStatus = (status: JobStatus): boolean => ACTIVE_STATUSES.includes(status);

export async function createJob(api: ApiClient, kind: JobKind, request: SyncJobRequest): Promise<SyncJob> {
  if (kind === 'import') return unwrap(await api.POST('/imports', { body: request }), CREATE_ERRORS.import).import;
  return unwrap(await api.POST('/exports', { body: request }), CREATE_ERRORS.export).export;
}

export async function fetchJob(api: ApiClient, kind: JobKind, id: number, signal?: AbortSignal): Promise<SyncJob> {
  const init = { params: { path: { id } }, signal };
  if (kind === 'import') return unwrap(await api.GET('/imports/{id}', init), POLL_ERRORS.import).import;
  return unwrap(await api.GET('/exports/{id}', init), POLL_ERRORS.export).export;
}

export async function listJobs(api: ApiClient, kind: JobKind, page: number, perPage: number): Promise<{ jobs: SyncJob[]; meta: PageMeta }> {
  const query = { params: { query: { page, per_page: perPage } } };
  if (kind === 'import') {
    const data = unwrap(await api.GET('/imports', query), 'An error has occurred. Could not load imports.');
    return { jobs: data.imports, meta: data.meta };
  }
  const data = unwrap(await api.GET('/exports', query), 'An error has occurred. Could not load exports.');
  return { jobs: data.exports, meta: data.meta };
}

export async function cancelJob(api: ApiClient, kind: JobKind, id: number): Promise<SyncJob> {
  const init = { params: { path: { id } } };
  if (kind === 'import') return unwrap(await api.POST('/imports/{id}/cancel', init), 'An error has occurred. Could not cancel the import.').import;
  return unwrap(await api.POST('/exports/{id}/cancel', init), 'An error has occurred. Could not cancel the export.').export;
}
