// A client's care plans and absences, under one prefix each: what changes visits of a plan (an allocation applied, an
// open visit filled or removed, an absence) invalidates ['care-plans'] so the plans' counts are read again.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchCarePlans, fetchClientAbsences } from './api';

export const carePlanQueries = {
  all: () => ['care-plans'] as const,
  ofClient: (api: ApiClient, clientId: number) =>
    queryOptions({ queryKey: [...carePlanQueries.all(), clientId] as const, queryFn: () => fetchCarePlans(api, clientId) }),
};

export const absenceQueries = {
  all: () => ['client-absences'] as const,
  ofClient: (api: ApiClient, clientId: number) =>
    queryOptions({ queryKey: [...absenceQueries.all(), clientId] as const, queryFn: () => fetchClientAbsences(api, clientId) }),
};
