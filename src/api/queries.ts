// Query-options factories for the server data whose calls live in ./endpoints.ts (one key per piece of data).
// Feature data has its factories beside the feature's api.ts (src/features/<feature>/queries.ts).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { fetchConfig, fetchCurrentProviderAccount } from './endpoints';

export const configQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['config'] as const, queryFn: () => fetchConfig(api), staleTime: Infinity }),
};

/** The provider account as the pages see it (the start-up machine reads it on its own at sign-in). */
export const providerAccountQueries = {
  current: (api: ApiClient) =>
    queryOptions({ queryKey: ['sync', 'provider_account'] as const, queryFn: () => fetchCurrentProviderAccount(api) }),
};
