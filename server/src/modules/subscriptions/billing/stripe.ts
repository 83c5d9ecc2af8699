// Stripe through its HTTP API (form-encoded requests, fetch, no SDK): a customer per business, a Checkout Session to
// add a payment method and subscribe (mode subscription with STRIPE_PRICE_ID, else setup), the Billing Portal.
import type { StripeConfig } from '../../../config';
import { BillingUnavailable, type BillingProvider, type CheckoutRequest, type CustomerRequest } from './provider';

type Fetch = typeof fetch;
const STRIPE_TIMEOUT_MS = 10_000;
const FAILED = 'The billing provider did not answer: try again in a minute.';

/** Stripe's form encoding of nested parameters: { metadata: { a: 1 } } → metadata[a]=1, arrays as [0], [1]. */
export function stripeForm(params: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
    else if (typeof value === 'object') for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    else form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return form;
}

export function stripeBillingProvider(config: StripeConfig, fetchImpl: Fetch = fetch): BillingProvider {
  async function call<T>(path: string, params: Record<string, unknown>): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${config.apiUrl}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${config.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: stripeForm(params).toString(),
        signal: AbortSignal.timeout(STRIPE_TIMEOUT_MS),
      });
    } catch {
      throw new BillingUnavailable(FAILED, 502);
    }
    if (!response.ok) throw new BillingUnavailable(FAILED, 502);
    return (await response.json()) as T;
  }

  return {
    name: 'stripe',
    online: true,
    async customer(request: CustomerRequest) {
      const metadata = { business_account_id: String(request.businessAccountId) };
      return (await call<{ id: string }>('/v1/customers', { email: request.email, name: request.businessName, metadata })).id;
    },
    async checkout(request: CheckoutRequest) {
      const metadata = { business_account_id: String(request.businessAccountId) };
      const subscription = config.priceId !== null;
      const session = await call<{ url: string }>('/v1/checkout/sessions', {
        mode: subscription ? 'subscription' : 'setup',
        customer: request.customerId,
        client_reference_id: String(request.businessAccountId),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata,
        ...(subscription
          ? { line_items: [{ price: config.priceId, quantity: 1 }], subscription_data: { metadata } }
          : { payment_method_types: ['card'], setup_intent_data: { metadata } }),
      });
      return { url: session.url };
    },
    async portal({ customerId, returnUrl }) {
      return call<{ url: string }>('/v1/billing_portal/sessions', { customer: customerId, return_url: returnUrl });
    },
  };
}
