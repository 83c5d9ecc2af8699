// Subscription info (ADMIN), the billing actions, the Stripe webhook, the operator's set-subscription, and the gate
// every business call passes: while payment is required (rules.ts, read with the session by auth) the API answers 40003.
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { HttpError, notFound } from '../../http/errors';
import type { Db } from '../../db/client';
import type { SubscriptionPlan, SubscriptionStatus } from '../../db/schema';
import { findUserById } from '../users';
import { offlineBillingProvider, BillingUnavailable, type BillingProvider } from './billing/provider';
import { stripeBillingProvider } from './billing/stripe';
import { asStripeEvent, businessReferenceOf, changesForStripeEvent, dateOfUnixSeconds } from './billing/stripe-events';
import { signatureProblem } from './billing/stripe-signature';
import {
  businessExists, currentMonth, findBusinessIdByStripeCustomer, findBusinessWithSubscription, findBusinessesWithSubscriptions, lockSubscription, recordBillingEvent,
  updateSubscription, usageCounts, type BusinessWithSubscription, type SubscriptionChanges, type SubscriptionRow,
} from './repository';
import { PLAN_SEAT_LIMITS, defaultTrialEnd, graceEndsAt, paymentRequired, subscriptionStateOf, type SubscriptionState } from './rules';

export const PAYMENT_REQUIRED_CODE = '40003';
export const PAYMENT_REQUIRED_MESSAGE = 'A payment method is required to keep using Rounds.';

export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

const stateOf = (found: BusinessWithSubscription): SubscriptionState => subscriptionStateOf(found.businessCreatedAt, found.subscription);

export interface SubscriptionSetting {
  plan?: SubscriptionPlan;
  status?: SubscriptionStatus;
  trialEndsAt?: Date | null;
  pastDueSince?: Date | null;
  paymentMethodOnFile?: boolean;
}

/** The operator's command: sets what the offline provider would have been told; answers the state and whether payment is now required. */
export async function setSubscription(db: Db, businessAccountId: number, setting: SubscriptionSetting) {
  if (!(await businessExists(db, businessAccountId))) throw notFound('Business account');
  return db.transaction(async (tx) => {
    const found = (await findBusinessWithSubscription(tx, businessAccountId))!;
    const current = await lockSubscription(tx, businessAccountId, defaultTrialEnd(found.businessCreatedAt));
    const status = setting.status ?? current.status;
    const changes: SubscriptionChanges = {
      ...(setting.plan ? { plan: setting.plan } : {}),
      ...(setting.status ? { status: setting.status } : {}),
      ...(setting.trialEndsAt !== undefined ? { trial_ends_at: setting.trialEndsAt } : {}),
      ...(setting.paymentMethodOnFile !== undefined ? { payment_method_on_file: setting.paymentMethodOnFile } : {}),
      past_due_since: status === 'past_due' ? (setting.pastDueSince ?? current.past_due_since ?? new Date()) : null,
    };
    const row = await updateSubscription(tx, businessAccountId, changes);
    const state = stateOf({ ...found, subscription: row });
    return { row, paymentRequired: paymentRequired(state, new Date()) };
  });
}

/**
 * Which of `businessAccountIds` need a payment method at `now` (the rule in rules.ts): the scheduler's automatic
 * imports and exports and the daily reminders skip them until they pay, as the API answers their users with 40003.
 */
export async function businessesRequiringPayment(db: Db, businessAccountIds: readonly number[], now: Date): Promise<Set<number>> {
  const businesses = await findBusinessesWithSubscriptions(db, businessAccountIds);
  return new Set(businesses
    .filter((business) => paymentRequired(stateOf(business), now))
    .map((business) => business.businessAccountId));
}

export class SubscriptionService {
  private readonly provider: BillingProvider;

  constructor(private readonly ctx: AppContext, provider?: BillingProvider) {
    this.provider = provider ?? (ctx.config.stripe ? stripeBillingProvider(ctx.config.stripe) : offlineBillingProvider);
  }

  /** Throws 40003 while the business needs a payment method (the gate in app.ts calls it for every business call but the exempt ones). */
  async get(auth: AuthContext): Promise<Schemas['Subscription']> {
    const { db } = this.ctx;
    const found = await findBusinessWithSubscription(db, auth.businessAccountId);
    if (!found) throw notFound('Business account');
    const state = stateOf(found);
    const [usage, month] = await Promise.all([usageCounts(db, auth.businessAccountId, found.timeZone), currentMonth(db, found.timeZone)]);
    return {
      plan: state.plan,
      status: state.status,
      trial_ends_at: state.trialEndsAt?.toISOString() ?? null,
      past_due_since: state.pastDueSince?.toISOString() ?? null,
      grace_ends_at: graceEndsAt(state)?.toISOString() ?? null,
      payment_method_on_file: state.paymentMethodOnFile,
      payment_required: paymentRequired(state, new Date()),
      seats: { used: usage.seats_used, limit: PLAN_SEAT_LIMITS[state.plan] },
      usage: { month, visits_optimised: usage.visits_optimised, imports: usage.imports, emails_sent: usage.emails_sent },
      billing: {
        provider: this.provider.name,
        can_add_payment_method: this.provider.online,
        can_open_portal: this.provider.online && Boolean(found.subscription?.stripe_customer_id),
      },
    };
  }

  async checkout(auth: AuthContext): Promise<{ url: string }> {
    const { db, config } = this.ctx;
    const user = await findUserById(db, auth.userId);
    if (!user) throw notFound('Business account');
    // The business's billing customer is made once: its subscription row stays locked while the provider creates it,
    // so simultaneous checkouts wait for the first one's customer instead of each making one.
    const customerId = await db.transaction(async (tx) => {
      const found = await findBusinessWithSubscription(tx, auth.businessAccountId);
      if (!found) throw notFound('Business account');
      const row = await lockSubscription(tx, auth.businessAccountId, defaultTrialEnd(found.businessCreatedAt));
      if (row.stripe_customer_id) return row.stripe_customer_id;
      const created = await this.billing(() => this.provider.customer({
        businessAccountId: auth.businessAccountId, businessName: user.business.name, email: user.user.email,
      }));
      await updateSubscription(tx, auth.businessAccountId, { stripe_customer_id: created });
      return created;
    });
    const page = `${config.publicUrl}/settings/subscription`;
    return this.billing(() => this.provider.checkout({
      businessAccountId: auth.businessAccountId, customerId, successUrl: `${page}?checkout=done`, cancelUrl: page,
    }));
  }

  async portal(auth: AuthContext): Promise<{ url: string }> {
    const found = await findBusinessWithSubscription(this.ctx.db, auth.businessAccountId);
    const customerId = found?.subscription?.stripe_customer_id;
    if (this.provider.online && !customerId) throw new HttpError(409, 'Add a payment method first: the billing portal opens once the business has one.', 'CONFLICT');
    return this.billing(() => this.provider.portal({ customerId: customerId ?? '', returnUrl: `${this.ctx.config.publicUrl}/settings/subscription` }));
  }

  /** Verifies and applies one Stripe event: each event id once, and never an event older than the last one applied. */
  async receiveStripeWebhook(payload: string, signature: string | undefined, now = new Date()): Promise<WebhookOutcome> {
    const stripe = this.ctx.config.stripe;
    if (!stripe) throw notFound('Stripe webhook');
    const problem = signatureProblem(signature, payload, stripe.webhookSecret, Math.floor(now.getTime() / 1000));
    if (problem) throw new HttpError(400, problem, 'BAD_SIGNATURE');
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      throw new HttpError(400, 'The event is not JSON.', 'BAD_REQUEST');
    }
    const event = asStripeEvent(parsed);
    if (typeof event === 'string') throw new HttpError(400, event, 'BAD_REQUEST');

    const { db } = this.ctx;
    const reference = businessReferenceOf(event);
    let businessAccountId = reference.businessAccountId !== null && (await businessExists(db, reference.businessAccountId)) ? reference.businessAccountId : null;
    if (businessAccountId === null && reference.customerId) businessAccountId = (await findBusinessIdByStripeCustomer(db, reference.customerId)) ?? null;

    return db.transaction(async (tx) => {
      const first = await recordBillingEvent(tx, { provider: 'stripe', eventId: event.id, eventType: event.type, businessAccountId });
      if (!first) return 'duplicate';
      if (businessAccountId === null) {
        this.ctx.log.warn({ eventId: event.id, eventType: event.type, customerId: reference.customerId },
          'Stripe event names no business of this server (by its business reference or customer): recorded and ignored');
        return 'ignored';
      }
      const found = (await findBusinessWithSubscription(tx, businessAccountId))!;
      const current: SubscriptionRow = await lockSubscription(tx, businessAccountId, defaultTrialEnd(found.businessCreatedAt));
      const at = dateOfUnixSeconds(event.created)!;
      if (current.last_event_at && at < current.last_event_at) return 'stale';
      const changes = changesForStripeEvent(event, current);
      if (changes === null) return 'ignored';
      await updateSubscription(tx, businessAccountId, { ...changes, last_event_at: at });
      return 'applied';
    });
  }

  private async billing<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof BillingUnavailable) throw new HttpError(error.status, error.message, error.status === 409 ? 'CONFLICT' : 'BILLING_UNAVAILABLE');
      throw error;
    }
  }
}
