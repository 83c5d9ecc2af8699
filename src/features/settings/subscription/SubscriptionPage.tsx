// /settings/subscription (ADMIN, "Subscription info"): the plan, its status and trial end, seats (active practitioners
// against the plan's limit), whether a payment method is on file, this month's usage, and the billing actions. While
// the business needs a payment method this is where admins are taken, with the action to add one first.
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices, useStartUpSelector } from '../../../app/ServicesContext';
import { useShownTimeZone } from '../../../app/timeZone';
import { messageOfError } from '../../../api/errors';
import { formatDateTime } from '../../../lib/dates';
import { selectPaymentRequired } from '../../../machines/startUp';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Button } from '../../../ui/Button';
import { ErrorNote, SuccessNote } from '../../../ui/forms';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { SUBSCRIPTION_LOAD_ERROR, type Subscription } from './api';
import { useOpenBillingPortal, useStartCheckout } from './mutations';
import { subscriptionQueries } from './queries';

const CHECKOUT_POLL_MS = 3000;

export const PLAN_WORDS: Record<Subscription['plan'], string> = { trial: 'Trial', standard: 'Standard' };
export const STATUS_WORDS: Record<Subscription['status'], string> = { trialing: 'Trialing', active: 'Active', past_due: 'Past due', cancelled: 'Cancelled' };

export default function SubscriptionPage({ route }: RoutePageProps) {
  const { api, startUp } = useServices();
  // Back from the provider's checkout: its webhook may land a moment later, so the page asks again until it has.
  const [returned] = useState(() => new URLSearchParams(window.location.search).get('checkout') === 'done');
  const subscription = useQuery({
    ...subscriptionQueries.current(api),
    refetchInterval: (query) => (returned && query.state.data?.payment_method_on_file === false ? CHECKOUT_POLL_MS : false),
  });
  const locked = useStartUpSelector(selectPaymentRequired);
  const fixed = subscription.data !== undefined && !subscription.data.payment_required;
  // Back from the provider with a payment method (or set by the operator): the app starts up again.
  useEffect(() => {
    if (locked && fixed) startUp.send({ type: 'RELOAD' });
  }, [locked, fixed, startUp]);
  return (
    <>
      <PageHeader title={route.title}>Your plan, seats and this month’s usage, and the payment method Rounds bills.</PageHeader>
      {returned && subscription.data && !subscription.data.payment_method_on_file && (
        <div className="mb-6"><SuccessNote>Thank you. The payment provider is confirming your payment method: this page updates once it has.</SuccessNote></div>
      )}
      {subscription.isPending && <Card><PageSpinner label="Loading the subscription" /></Card>}
      {subscription.isError && <ErrorNote>{messageOfError(subscription.error, SUBSCRIPTION_LOAD_ERROR)}</ErrorNote>}
      {subscription.data && <SubscriptionInfo subscription={subscription.data} />}
    </>
  );
}

function why(subscription: Subscription, timeZone: string): string {
  if (subscription.status === 'cancelled') return 'The subscription is cancelled.';
  if (subscription.status === 'past_due') return `A payment has been overdue since ${subscription.past_due_since ? formatDateTime(subscription.past_due_since, timeZone) : 'some time'}.`;
  return `The trial ended on ${subscription.trial_ends_at ? formatDateTime(subscription.trial_ends_at, timeZone) : 'its last day'}.`;
}

function SubscriptionInfo({ subscription }: { subscription: Subscription }) {
  const timeZone = useShownTimeZone();
  const checkout = useStartCheckout();
  const portal = useOpenBillingPortal();
  const { billing, seats, usage } = subscription;
  const month = new Intl.DateTimeFormat('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${usage.month}-01T00:00:00Z`));
  const addButton = billing.can_add_payment_method && (
    <Button type="button" busy={checkout.isPending} onClick={() => checkout.mutate()}>Add a payment method</Button>
  );
  const failure = checkout.error ?? portal.error;
  const overSeats = seats.used > seats.limit;

  return (
    <div className="space-y-6">
      {subscription.payment_required && (
        <div role="alert" data-testid="payment-required-callout" className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          <h2 className="text-base font-semibold">A payment method is required</h2>
          <p className="mt-1 text-sm">
            {why(subscription, timeZone)} Rounds is paused for everyone in your business until a payment method is added.
            {!billing.can_add_payment_method && ' Contact Rounds support to add one.'}
          </p>
          {addButton && <div className="mt-3">{addButton}</div>}
        </div>
      )}
      {failure && <ErrorNote>{messageOfError(failure, 'An error has occurred. Could not open the billing page.')}</ErrorNote>}

      <Card>
        <h2 className="text-base font-semibold">Plan</h2>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Item term="Plan">{PLAN_WORDS[subscription.plan]}</Item>
          <Item term="Status">{STATUS_WORDS[subscription.status]}</Item>
          {subscription.trial_ends_at && (subscription.plan === 'trial' || subscription.status === 'trialing') && (
            <Item term="Trial ends">{formatDateTime(subscription.trial_ends_at, timeZone)}</Item>
          )}
          {subscription.grace_ends_at && <Item term="Payment needed by">{formatDateTime(subscription.grace_ends_at, timeZone)}</Item>}
          <Item term="Payment method">{subscription.payment_method_on_file ? 'On file' : 'None on file'}</Item>
          <Item term="Seats">
            <span className={overSeats ? 'font-semibold text-rose-700 dark:text-rose-300' : ''}>
              {seats.used} of {seats.limit} active practitioners
            </span>
            <span aria-hidden="true" className="mt-1 block h-1.5 w-full max-w-56 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
              <span className={`block h-full ${overSeats ? 'bg-rose-500' : 'bg-sky-500'}`} style={{ width: `${Math.min(100, (seats.used / Math.max(seats.limit, 1)) * 100)}%` }} />
            </span>
            {overSeats && <span className="mt-1 block text-xs">More active practitioners than the plan allows: change plan or deactivate some.</span>}
          </Item>
        </dl>
        <div className="mt-5 flex flex-wrap gap-3">
          {!subscription.payment_required && !subscription.payment_method_on_file && addButton}
          {billing.can_open_portal && (
            <Button type="button" variant="secondary" busy={portal.isPending} onClick={() => portal.mutate()}>Manage billing</Button>
          )}
          {!billing.can_add_payment_method && !subscription.payment_required && (
            <p className="text-sm text-slate-500 dark:text-slate-400">Billing for this server is handled by Rounds support.</p>
          )}
        </div>
      </Card>

      <Card>
        <h2 className="text-base font-semibold">Usage in {month}</h2>
        <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-3">
          <Figure term="Visits optimised" value={usage.visits_optimised} />
          <Figure term="Imports" value={usage.imports} />
          <Figure term="Emails sent" value={usage.emails_sent} />
        </dl>
      </Card>
    </div>
  );
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="mt-0.5 font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

function Figure({ term, value }: { term: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value.toLocaleString('en-AU')}</dd>
    </div>
  );
}
