// The provider account as the settings pages see it: refreshed every 1500 ms while it is INITIALIZING.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { providerAccountQueries } from '../../../api/queries';
import { POLL_INTERVAL_MS } from '../../../machines/jobPolling';

export function useProviderAccount() {
  const { api } = useServices();
  return useQuery({
    ...providerAccountQueries.current(api),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'INITIALIZING' ? POLL_INTERVAL_MS : false),
  });
}

export const PROVIDER_NAMES: Record<string, string> = { cliniko: 'Cliniko' };
