// The custom locations, one key: the practitioners' place pickers read them (and the custom locations page will).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { fetchCustomLocations } from './api';

export const customLocationQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['custom_locations', 'all'] as const, queryFn: () => fetchCustomLocations(api) }),
};
