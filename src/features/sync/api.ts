// The calls of the sync area (import/export jobs, their history, sync settings and the provider account;
// the reference lists are read through ../appointments/queries.ts), typed by the contract; failures are
// thrown as ApiError with the server's message, else the fallbacks below ('An error has occurred. …').
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import type { ProviderAccount } from '../../api/types';

type Schemas = components['schemas'];
export type JobKind = 'import' | 'export';
export type JobStatus = Schemas['JobStatus'];
export type ImportJob = Schemas['Import'];
export type ExportJob = Schemas['Export'];
export type SyncJob = ImportJob | ExportJob;
export type SyncJobRequest = Schemas['SyncJobRequest'];
export type SyncSettings = Schemas['SyncSettings'];
export type SyncFilters = Schemas['SyncFilters'];
export type BusinessLocation = Schemas['BusinessLocation'];
export type Practitioner = Schemas['Practitioner'];
export type AppointmentType = Schemas['AppointmentType'];
export type PageMeta = Schemas['PageMeta'];

export const LOAD_ERRORS = {
  businessLocations: 'An error has occurred. Could not load business location list.',
  practitioners: 'An error has occurred. Could not load practitioners list.',
  appointmentTypes: 'An error has occurred. Could not load appointment types list.',
  syncSettings: 'An error has occurred. Could not load sync settings.',
} as const;

export const CREATE_ERRORS: Record<JobKind, string> = {
  import: 'An error has occurred. Could not create import.',
  export: 'An error has occurred. Could not create export.',
};

const POLL_ERRORS: Record<JobKind, string> = {
  import: 'An error has occurred. Could not load the import status.',
  export: 'An error has occurred. Could not load the export status.',
};

export const ACTIVE_STATUSES: readonly JobStatus[] = ['PENDING', 'INPROGRESS'];
export const isActiveStatus = (status: JobStatus): boolean => ACTIVE_STATUSES.includes(status);

export async function fetchSyncSettings(api: ApiClient): Promise<SyncSettings> {
  return unwrap(await api.GET('/sync_settings'), LOAD_ERRORS.syncSettings).sync_settings;
}

export async function saveSyncSettings(api: ApiClient, settings: SyncSettings): Promise<SyncSettings> {
  const result = await api.PUT('/sync_settings', { body: settings });
  return unwrap(result, 'An error has occurred. Could not save sync settings.').sync_settings;
}

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

export async function connectProviderAccount(api: ApiClient, apiKey: string): Promise<ProviderAccount> {
  const result = await api.POST('/provider_account', { body: { api_key: apiKey } });
  return unwrap(result, 'An error has occurred. Could not connect the provider account.').provider_account;
}

export async function disconnectProviderAccount(api: ApiClient): Promise<ProviderAccount> {
  const result = await api.DELETE('/provider_account');
  return unwrap(result, 'An error has occurred. Could not disconnect the provider account.').provider_account;
}
