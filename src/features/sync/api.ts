// The calls of the sync area that only its views make (sync settings, connecting and disconnecting the provider
// account), typed by the contract; failures are thrown as ApiError with the server's message, else the fallbacks below.
// Import and export jobs are ../../api/jobs.ts (the sync machines call them too); the reference lists are read through
// ../appointments/queries.ts.
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import type { ProviderAccount } from '../../api/types';

type Schemas = components['schemas'];
export type SyncSettings = Schemas['SyncSettings'];
export type ExportPreview = Schemas['ExportPreview'];
export type SyncFilters = Schemas['SyncFilters'];

export const LOAD_ERRORS = {
  businessLocations: 'An error has occurred. Could not load business location list.',
  practitioners: 'An error has occurred. Could not load practitioners list.',
  appointmentTypes: 'An error has occurred. Could not load appointment types list.',
  syncSettings: 'An error has occurred. Could not load sync settings.',
} as const;

export async function fetchSyncSettings(api: ApiClient): Promise<SyncSettings> {
  return unwrap(await api.GET('/sync_settings'), LOAD_ERRORS.syncSettings).sync_settings;
}

export async function saveSyncSettings(api: ApiClient, settings: SyncSettings): Promise<SyncSettings> {
  const result = await api.PUT('/sync_settings', { body: settings });
  return unwrap(result, 'An error has occurred. Could not save sync settings.').sync_settings;
}

export async function connectProviderAccount(api: ApiClient, apiKey: string): Promise<ProviderAccount> {
  const result = await api.POST('/provider_account', { body: { api_key: apiKey } });
  return unwrap(result, 'An error has occurred. Could not connect the provider account.').provider_account;
}

export async function disconnectProviderAccount(api: ApiClient): Promise<ProviderAccount> {
  const result = await api.DELETE('/provider_account');
  return unwrap(result, 'An error has occurred. Could not disconnect the provider account.').provider_account;
}

/** What an export of the request would change, for its confirmation. */
export async function fetchExportPreview(api: ApiClient, request: Schemas['SyncJobRequest']): Promise<ExportPreview> {
  return unwrap(await api.POST('/exports/preview', { body: request }), 'An error has occurred. Could not count the visits the export would change.').preview;
}
