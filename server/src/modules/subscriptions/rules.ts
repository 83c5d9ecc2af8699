// When a business must add a payment method before it can use Rounds again, in one place: the API's 40003 gate, the
// Subscription info page, the operator command and the scheduler (no automatic sync, no reminders) all read it from here.
import type { SubscriptionPlan, SubscriptionStatus, subscriptions } from '../../db/schema';

/** A business without a subscription row is on a trial this long from its creation. */
export const TRIAL_DAYS = 30;
/** How long a past-due business keeps working while the provider retries the payment. */
export const GRACE_DAYS = 7;
/** Active practitioners each plan allows. */
export const PLAN_SEAT_LIMITS: Readonly<Record<SubscriptionPlan, number>> = { trial: 25, standard: 100 };

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SubscriptionState {
  plan: SubscriptionPlan;
  status: SubscriptionStatus;
  trialEndsAt: Date | null;
  pastDueSince: Date | null;
  paymentMethodOnFile: boolean;
}

export const graceEndsAt = (state: SubscriptionState): Date | null =>
  (state.status === 'past_due' && state.pastDueSince ? new Date(state.pastDueSince.getTime() + GRACE_DAYS * DAY_MS) : null);

/**
 * Payment is required when the trial has ended without a payment method, when a payment has been past due for longer
 * than the grace period, or when the subscription is cancelled.
 */
export function paymentRequired(state: SubscriptionState, now: Date): boolean {
  switch (state.status) {
    case 'trialing':
      return !state.paymentMethodOnFile && state.trialEndsAt !== null && state.trialEndsAt.getTime() <= now.getTime();
    case 'past_due': {
      const graceEnd = graceEndsAt(state);
      return graceEnd !== null && graceEnd.getTime() <= now.getTime();
    }
    case 'cancelled':
      return true;
    default:
      return false;
  }
}

export const defaultTrialEnd = (businessCreatedAt: Date): Date => new Date(businessCreatedAt.getTime() + TRIAL_DAYS * DAY_MS);

/** What the rules read of a subscription row. */
export type SubscriptionTerms = Pick<typeof subscriptions.$inferSelect, 'plan' | 'status' | 'trial_ends_at' | 'past_due_since' | 'payment_method_on_file'>;

/** A business's subscription as the rules read it: its row, or without one a trial from the business's creation. */
export function subscriptionStateOf(businessCreatedAt: Date, row: SubscriptionTerms | null): SubscriptionState {
  if (!row) return { plan: 'trial', status: 'trialing', trialEndsAt: defaultTrialEnd(businessCreatedAt), pastDueSince: null, paymentMethodOnFile: false };
  return { plan: row.plan, status: row.status, trialEndsAt: row.trial_ends_at, pastDueSince: row.past_due_since, paymentMethodOnFile: row.payment_method_on_file };
}
