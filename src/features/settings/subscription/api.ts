// Subscription info's calls (ADMIN; open while payment is required): the plan and usage, and the billing provider's
// pages to add a payment method (checkout) or manage billing (portal).
import type { ApiClient } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { components } from '../../../api/schema';

export type Subscription = components['schemas']['Subscription'];

export const SUBSCRIPTION_LOAD_ERROR = 'An error has occurred. Could not load the subscription.';

export async function fetchSubscription(api: ApiClient): Promise<Subscription> {
  return unwrap(await api.GET('/subscription'), SUBSCRIPTION_LOAD_ERROR).subscription;
}

export async function startCheckout(api: ApiClient): Promise<string> {
  return unwrap(await api.POST('/subscription/checkout'), 'An error has occurred. Could not open the payment page.').url;
}

export async function openPortal(api: ApiClient): Promise<string> {
  return unwrap(await api.POST('/subscription/portal'), 'An error has occurred. Could not open the billing portal.').url;
}
