// The billing actions: each asks the server for the provider's page and sends the browser there. A refusal (no online
// billing on this server, the provider down) is the mutation's error, shown by the page.
import { useMutation } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { openPortal, startCheckout } from './api';

/** Leaves the app for the billing provider's page (a seam for tests). */
export const leaveForBilling = { go: (url: string) => window.location.assign(url) };

export function useStartCheckout() {
  const { api } = useServices();
  return useMutation({ mutationFn: () => startCheckout(api), onSuccess: (url) => leaveForBilling.go(url) });
}

export function useOpenBillingPortal() {
  const { api } = useServices();
  return useMutation({ mutationFn: () => openPortal(api), onSuccess: (url) => leaveForBilling.go(url) });
}
