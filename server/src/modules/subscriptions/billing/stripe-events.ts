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

/** The event, or what keeps the body from being one (a sentence for the 400). */
export function asStripeEvent(body: unknown): StripeEvent | string {
  const event = body as Partial<StripeEvent> | null;
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number'
    || !event.data || typeof event.data.object !== 'object' || event.data.object === null) {
    return 'The body is not a Stripe event (id, type, created, data.object).';
  }
  if (dateOfUnixSeconds(event.created) === null) return 'The event’s created time is not a Unix time in seconds between 1970 and 9999.';
  return event as StripeEvent;
}

const LATEST_UNIX_SECONDS = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

/** The instant of a Stripe timestamp (whole Unix seconds), or null for anything no Stripe timestamp can be. */
export function dateOfUnixSeconds(value: unknown): Date | null {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= LATEST_UNIX_SECONDS ? new Date((value as number) * 1000) : null;
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

// A Map, so that a status such as `__proto__` or `toString` is simply unknown rather than an object's inherited member.
const STATUS_OF = new Map<unknown, SubscriptionStatus>([
  ['trialing', 'trialing'], ['active', 'active'], ['past_due', 'past_due'], ['unpaid', 'past_due'], ['incomplete', 'past_due'],
  ['canceled', 'cancelled'], ['incomplete_expired', 'cancelled'], ['paused', 'cancelled'],
]);

/** The row's changes for the event; null for an event that changes no subscription (it is still recorded as handled). */
export function changesForStripeEvent(event: StripeEvent, current: SubscriptionRow): SubscriptionChanges | null {
  const object = event.data.object;
  const at = dateOfUnixSeconds(event.created)!;
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
      const status = STATUS_OF.get(object.status) ?? current.status;
      const trialEnd = dateOfUnixSeconds(object.trial_end);
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
