// What a Stripe event means for a business's subscription, as a pure function of the event and the current row: the
// webhook handler applies it once (billing_events) and only when the event is not older than the last one applied.
import type { SubscriptionStatus } from '../../../db/schema';
import type { SubscriptionChanges, SubscriptionRow } from '../repository';

export interface StripeEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: Record<string, unknown> };
}

export function asStripeEvent(body: unknown): StripeEvent | null {
  const event = body as Partial<StripeEvent> | null;
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number') return null;
  if (!event.data || typeof event.data.object !== 'object' || event.data.object === null) return null;
  return event as StripeEvent;
}

const MAX_ID = 2_147_483_647;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The business an event is about: its metadata or client_reference_id (set by our checkout), else its customer. */
export function businessReferenceOf(event: StripeEvent): { businessAccountId: number | null; customerId: string | null } {
  const object = event.data.object;
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const raw = text(metadata.business_account_id) ?? text(object.client_reference_id);
  // Our ids are PostgreSQL integers: anything else names no business of ours.
  const id = raw !== null && /^\d{1,10}$/.test(raw) && Number(raw) <= MAX_ID ? Number(raw) : null;
  const customerId = event.type.startsWith('customer.') && !event.type.startsWith('customer.subscription.') ? text(object.id) : text(object.customer);
  return { businessAccountId: id, customerId };
}

const STATUS_OF: Record<string, SubscriptionStatus> = {
  trialing: 'trialing', active: 'active', past_due: 'past_due', unpaid: 'past_due', incomplete: 'past_due',
  canceled: 'cancelled', incomplete_expired: 'cancelled', paused: 'cancelled',
};

/** The row's changes for the event; null for an event that changes no subscription (it is still recorded as handled). */
export function changesForStripeEvent(event: StripeEvent, current: SubscriptionRow): SubscriptionChanges | null {
  const object = event.data.object;
  const at = new Date(event.created * 1000);
  const pastDue = (status: SubscriptionStatus): Pick<SubscriptionChanges, 'past_due_since'> =>
    ({ past_due_since: status === 'past_due' ? (current.past_due_since ?? at) : null });
  const customer = text(object.customer);
  switch (event.type) {
    case 'checkout.session.completed': {
      const subscription = text(object.subscription);
      return {
        payment_method_on_file: true,
        ...(customer ? { stripe_customer_id: customer } : {}),
        ...(subscription ? { stripe_subscription_id: subscription, plan: 'standard', status: 'active', past_due_since: null } : {}),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      const status = STATUS_OF[String(object.status)] ?? current.status;
      const trialEnd = typeof object.trial_end === 'number' ? new Date(object.trial_end * 1000) : null;
      return {
        status,
        plan: status === 'trialing' ? 'trial' : 'standard',
        ...(trialEnd ? { trial_ends_at: trialEnd } : {}),
        ...pastDue(status),
        ...(text(object.id) ? { stripe_subscription_id: text(object.id) } : {}),
        ...(customer ? { stripe_customer_id: customer } : {}),
        ...(text(object.default_payment_method) ? { payment_method_on_file: true } : {}),
      };
    }
    case 'customer.subscription.deleted':
      return { status: 'cancelled', past_due_since: null };
    case 'invoice.payment_failed':
      return { status: 'past_due', ...pastDue('past_due') };
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return { status: 'active', plan: 'standard', past_due_since: null, payment_method_on_file: true };
    case 'payment_method.attached':
      return { payment_method_on_file: true };
    default:
      return null;
  }
}
