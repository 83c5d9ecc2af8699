// Query-options factories for the server data whose calls live in ./endpoints.ts (one key per piece of data).
// Feature data has its factories beside the feature's api.ts (src/features/<feature>/queries.ts).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { fetchConfig, fetchCurrentProviderAccount } from './endpoints';

export const configQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['config'] as const, queryFn: () => fetchConfig(api), staleTime: Infinity }),
};

/** The provider account: start-up reads it through this at sign-in (src/machines/startUp.ts), the pages and the banner from it. */
export const providerAccountQueries = {
  current: (api: ApiClient) =>
    queryOptions({ queryKey: ['sync', 'provider_account'] as const, queryFn: () => fetchCurrentProviderAccount(api) }),
};
