// The custom locations, one query-options factory (record 0006): this page and the practitioners' start/end place
// pickers read the same key.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { fetchCustomLocations } from './api';

export const customLocationQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['custom_locations'] as const, queryFn: () => fetchCustomLocations(api) }),
};
