// The billing provider behind Subscription info: where an admin adds a payment method (a checkout page) and manages
// billing (a customer portal). Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; otherwise the offline
// provider, whose subscriptions only the operator command changes (`npm run admin -- set-subscription …`).
export interface CheckoutRequest {
  businessAccountId: number;
  businessName: string;
  /** The admin asking: the billing customer's email when the business has no customer yet. */
  email: string;
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  readonly name: 'stripe' | 'offline';
  /** Whether an admin can add a payment method online (false: the operator sets the subscription). */
  readonly online: boolean;
  /** The page to send the admin to, and the billing customer it belongs to (to keep for the webhook and the portal). */
  checkout(request: CheckoutRequest): Promise<{ url: string; customerId: string }>;
  portal(request: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}

/** A refusal to show the admin: no online billing on this server, or the provider failed. */
export class BillingUnavailable extends Error {
  constructor(message: string, readonly status: 409 | 502) {
    super(message);
  }
}

export const offlineBillingProvider: BillingProvider = {
  name: 'offline',
  online: false,
  checkout: async () => {
    throw new BillingUnavailable('Payments are not taken online on this server: contact Rounds support to add a payment method.', 409);
  },
  portal: async () => {
    throw new BillingUnavailable('Billing is managed by Rounds support on this server: contact them to change your payment details.', 409);
  },
};
