// The provider account as the settings pages see it: refreshed every JOB_POLL_INTERVAL_MS while it is INITIALIZING.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { providerAccountQueries } from '../../../api/queries';
import { JOB_POLL_INTERVAL_MS } from '../../../api/jobs';

export function useProviderAccount() {
  const { api } = useServices();
  return useQuery({
    ...providerAccountQueries.current(api),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'INITIALIZING' ? JOB_POLL_INTERVAL_MS : false),
  });
}

export const PROVIDER_NAMES: Record<string, string> = { cliniko: 'Cliniko' };
