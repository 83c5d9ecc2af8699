// The account settings, one key: the Account settings page reads them.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { fetchBusinessAccount } from './api';

export const businessAccountQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['business_account'] as const, queryFn: () => fetchBusinessAccount(api) }),
};
