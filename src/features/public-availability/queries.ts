// The public availability page's server data (one query-options factory, one key).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchPublicAvailability } from './api';

export const publicAvailabilityQueries = {
  byToken: (api: ApiClient, token: string) =>
    queryOptions({ queryKey: ['public-availability', token] as const, queryFn: () => fetchPublicAvailability(api, token) }),
};
