// The provider account as the settings pages see it: refreshed every 1500 ms while it is INITIALIZING.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { fetchCurrentProviderAccount } from '../../../api/endpoints';
import { POLL_INTERVAL_MS } from '../../../machines/jobPolling';

export const PROVIDER_ACCOUNT_KEY = ['sync', 'provider_account'] as const;

export function useProviderAccount() {
  const { api } = useServices();
  return useQuery({
    queryKey: PROVIDER_ACCOUNT_KEY,
    queryFn: () => fetchCurrentProviderAccount(api),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'INITIALIZING' ? POLL_INTERVAL_MS : false),
  });
}

export const PROVIDER_NAMES: Record<string, string> = { cliniko: 'Cliniko' };
