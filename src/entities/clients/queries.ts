// Clients' and tags' server data, one query-options factory per resource (one key per piece of data).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchAllTags, fetchClient, listClients, type ClientListQuery } from './api';

export const clientQueries = {
  /** Every clients list page. */
  lists: () => ['clients'] as const,
  list: (api: ApiClient, query: ClientListQuery) =>
    queryOptions({ queryKey: [...clientQueries.lists(), 'list', query] as const, queryFn: () => listClients(api, query) }),
  /** Every client's details. */
  details: () => ['client'] as const,
  detail: (api: ApiClient, id: number) =>
    queryOptions({ queryKey: [...clientQueries.details(), id] as const, queryFn: () => fetchClient(api, id) }),
};

export const tagQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['tags', 'all'] as const, queryFn: () => fetchAllTags(api) }),
};
