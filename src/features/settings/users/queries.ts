// The business's users, one query-options factory (record 0006): each search and filter is a key under lists().
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { fetchUsers, type UserFilters } from './api';

export const userQueries = {
  lists: () => ['users'] as const,
  list: (api: ApiClient, filters: UserFilters) =>
    queryOptions({ queryKey: [...userQueries.lists(), filters] as const, queryFn: () => fetchUsers(api, filters) }),
};
