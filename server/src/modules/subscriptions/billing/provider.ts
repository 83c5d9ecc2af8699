// The billing provider behind Subscription info: where an admin adds a payment method (a checkout page) and manages
// billing (a customer portal). Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; otherwise the offline
// provider, whose subscriptions only the operator command changes (`npm run admin -- set-subscription …`).
export interface CustomerRequest {
  businessAccountId: number;
  businessName: string;
  /** The admin asking: the billing customer's email. */
  email: string;
}

export interface CheckoutRequest {
  businessAccountId: number;
  customerId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  readonly name: 'stripe' | 'offline';
  /** Whether an admin can add a payment method online (false: the operator sets the subscription). */
  readonly online: boolean;
  /** Creates the business's billing customer (once per business: kept for the webhook, checkout and the portal). */
  customer(request: CustomerRequest): Promise<string>;
  /** The page to send the admin to, to add a payment method for the customer. */
  checkout(request: CheckoutRequest): Promise<{ url: string }>;
  portal(request: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}

/** A refusal to show the admin: no online billing on this server, or the provider failed. */
export class BillingUnavailable extends Error {
  constructor(message: string, readonly status: 409 | 502) {
    super(message);
  }
}

const OFFLINE_CHECKOUT = 'Payments are not taken online on this server: contact Rounds support to add a payment method.';

export const offlineBillingProvider: BillingProvider = {
  name: 'offline',
  online: false,
  customer: async () => {
    throw new BillingUnavailable(OFFLINE_CHECKOUT, 409);
  },
  checkout: async () => {
    throw new BillingUnavailable(OFFLINE_CHECKOUT, 409);
  },
  portal: async () => {
    throw new BillingUnavailable('Billing is managed by Rounds support on this server: contact them to change your payment details.', 409);
  },
};
