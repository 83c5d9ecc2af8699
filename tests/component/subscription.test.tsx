// /settings/subscription ("Subscription info") and /payment-required: an admin sees the plan, status, trial end, seats,
// payment method and this month's usage, and the billing actions the server offers; while payment is required the
// admin is shown why with the action to add a payment method, and everyone else is asked to tell their administrator.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { leaveForBilling } from '../../src/features/settings/subscription/mutations';
import { activeAccount, quietDashboard, server, subscriptionOf } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import SubscriptionPage from '../../src/features/settings/subscription/SubscriptionPage';

useFakeApi();
afterEach(() => vi.restoreAllMocks());

const serve = (overrides: Parameters<typeof subscriptionOf>[0]) =>
  server.use(http.get('*/api/subscription', () => HttpResponse.json({ subscription: subscriptionOf(overrides) })));
const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;

describe('subscription info', () => {
  it('shows the plan, trial end, seats, payment method and this month’s usage', async () => {
    renderPage(SubscriptionPage, { path: '/settings/subscription', role: 'ADMIN' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription info' })).toBeInTheDocument();
    await screen.findByText('Usage in November 2026');
    expect(term('Plan')).toHaveTextContent('Trial');
    expect(term('Status')).toHaveTextContent('Trialing');
    expect(term('Trial ends')).toHaveTextContent(/21.*Dec.*2026/);
    expect(term('Payment method')).toHaveTextContent('None on file');
    expect(term('Seats')).toHaveTextContent('2 of 10 active practitioners');
    expect(term('Visits optimised')).toHaveTextContent('148');
    expect(term('Imports')).toHaveTextContent('12');
    expect(term('Emails sent')).toHaveTextContent('1,234');
    // Without online billing there is nothing to click, and the page says who handles it.
    expect(screen.queryByRole('button', { name: 'Add a payment method' })).not.toBeInTheDocument();
    expect(screen.getByText(/handled by Rounds support/)).toBeInTheDocument();
    expect(screen.queryByTestId('payment-required-callout')).not.toBeInTheDocument();
  });

  it('sends the admin to the provider’s checkout and portal pages', async () => {
    serve({ billing: { provider: 'stripe', can_add_payment_method: true, can_open_portal: true }, plan: 'standard', status: 'active', payment_method_on_file: false });
    server.use(
      http.post('*/api/subscription/checkout', () => HttpResponse.json({ url: 'https://checkout.stripe.test/c/1' })),
      http.post('*/api/subscription/portal', () => HttpResponse.json({ message: 'The billing provider did not answer: try again in a minute.' }, { status: 502 })),
    );
    const go = vi.spyOn(leaveForBilling, 'go').mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage(SubscriptionPage, { path: '/settings/subscription', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Add a payment method' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.test/c/1'));
    await user.click(screen.getByRole('button', { name: 'Manage billing' }));
    expect(await screen.findByText('The billing provider did not answer: try again in a minute.')).toBeInTheDocument();
    expect(go).toHaveBeenCalledTimes(1);
  });

  it('back from checkout, says the provider is confirming and asks again until the payment method is on file', async () => {
    let calls = 0;
    server.use(http.get('*/api/subscription', () => {
      calls += 1;
      return HttpResponse.json({ subscription: subscriptionOf({ payment_method_on_file: calls > 1, billing: { provider: 'stripe', can_add_payment_method: true, can_open_portal: calls > 1 } }) });
    }));
    renderPage(SubscriptionPage, { path: '/settings/subscription?checkout=done', role: 'ADMIN' });
    expect(await screen.findByText(/confirming your payment method/)).toBeInTheDocument();
    await waitFor(() => expect(term('Payment method')).toHaveTextContent('On file'), { timeout: 6000 });
    expect(screen.queryByText(/confirming your payment method/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeInTheDocument();
  }, 15_000);

  it('over the plan’s seats, says so', async () => {
    serve({ seats: { used: 12, limit: 10 } });
    renderPage(SubscriptionPage, { path: '/settings/subscription', role: 'ADMIN' });
    expect(await screen.findByText(/More active practitioners than the plan allows/)).toBeInTheDocument();
  });
});

describe('payment required', () => {
  const owing = { payment_required: true, trial_ends_at: '2026-11-01T00:00:00Z', billing: { provider: 'stripe' as const, can_add_payment_method: true, can_open_portal: false } };
  const refuseEverything = () => server.use(
    http.get('*/api/provider_account/current', () => HttpResponse.json({ message: 'A payment method is required to keep using Rounds.', code: '40003' }, { status: 403 })),
    http.get('*/api/dashboard', () => HttpResponse.json({ message: 'A payment method is required to keep using Rounds.', code: '40003' }, { status: 403 })),
  );

  it('takes an admin to Subscription info with why and the action to add a payment method', async () => {
    serve(owing);
    refuseEverything();
    renderApp('/dashboard', { as: 'ADMIN' });
    await waitFor(() => expect(window.location.pathname).toBe('/settings/subscription'));
    const callout = await screen.findByTestId('payment-required-callout');
    expect(callout).toHaveTextContent('A payment method is required');
    expect(callout).toHaveTextContent(/The trial ended on/);
    expect(screen.getByRole('button', { name: 'Add a payment method' })).toBeInTheDocument();
  });

  it('asks anyone else to tell their administrator, and keeps them there', async () => {
    refuseEverything();
    const user = userEvent.setup();
    renderApp('/clients', { as: 'REGULAR_USER' });
    await waitFor(() => expect(window.location.pathname).toBe('/payment-required'));
    expect(await screen.findByRole('heading', { name: 'Ask your administrator to add a payment method' })).toBeInTheDocument();
    expect(document.title).toBe('Payment required - Rounds');
    // The sidebar's pages lead back here until the business has paid.
    await user.click(screen.getAllByRole('link', { name: 'Appointments' })[0]);
    await waitFor(() => expect(window.location.pathname).toBe('/payment-required'));

    // The administrator has added one: "Check again" starts up again and the app works.
    server.use(
      http.get('*/api/provider_account/current', () => HttpResponse.json({ provider_account: activeAccount })),
      http.get('*/api/dashboard', () => HttpResponse.json(quietDashboard('REGULAR_USER'))),
    );
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await user.click(screen.getAllByRole('link', { name: 'Dashboard' })[0]);
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    expect(await screen.findByTestId('dashboard-greeting')).toBeInTheDocument();
  });
});
