// The subscription, one key: Subscription info reads it (always afresh: a payment may have just been added).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { fetchSubscription } from './api';

export const subscriptionQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['subscription'] as const, queryFn: () => fetchSubscription(api), staleTime: 0 }),
};
