// Open visits by range, under one prefix: booking, filling or an allocation invalidates ['open-visits'].
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchOpenVisits } from './api';

export const openVisitQueries = {
  all: () => ['open-visits'] as const,
  list: (api: ApiClient, range: { startDate?: string; endDate?: string } = {}) =>
    queryOptions({ queryKey: [...openVisitQueries.all(), range.startDate ?? null, range.endDate ?? null] as const, queryFn: () => fetchOpenVisits(api, range) }),
};
