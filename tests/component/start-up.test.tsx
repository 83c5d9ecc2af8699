import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { activeAccount, received, server } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

const providerAccount = (body: unknown, status = 200) =>
  http.get('*/api/provider_account/current', () => HttpResponse.json(body as object, { status }));

describe('start-up', () => {
  it('loads the user and the provider account for a restored session', async () => {
    renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    await waitFor(() => {
      const paths = received.map((request) => request.path);
      expect(paths).toContain('/api/auth/user');
      expect(paths).toContain('/api/provider_account/current');
    });
    expect(received.find((request) => request.path === '/api/auth/user')?.authorization).toBe('Bearer token-1');
  });

  it.each([
    ['missing', { provider_account: null }],
    ['INITIALIZING', { provider_account: { ...activeAccount, status: 'INITIALIZING' } }],
  ])('goes to account setup when the provider account is %s', async (_, body) => {
    server.use(providerAccount(body));
    renderApp('/dashboard', { as: 'ADMIN' });
    await waitFor(() => expect(currentPath()).toBe('/settings/account-setup'));
    await waitFor(() => expect(document.title).toBe('Account setup - Rounds'));
  });

  it('goes to account setup with a warning when the server says PROVIDER_ACCOUNT_NOT_SETUP', async () => {
    server.use(providerAccount({ message: 'Not set up', code: 'PROVIDER_ACCOUNT_NOT_SETUP' }, 403));
    renderApp('/clients', { as: 'ADMIN' });
    await waitFor(() => expect(currentPath()).toBe('/settings/account-setup'));
    const toasts = await screen.findAllByTestId('toast');
    expect(toasts.map((toast) => [toast.textContent, toast.getAttribute('data-type'), toast.getAttribute('role')])).toEqual([
      ['The account setup is not complete.', 'warning', 'alert'],
    ]);
  });

  it("shows 'The account is not active.' as a danger toast", async () => {
    server.use(providerAccount({ message: 'Inactive', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' }, 403));
    renderApp('/dashboard', { as: 'ADMIN' });
    const toasts = await screen.findAllByTestId('toast');
    expect(toasts.map((toast) => [toast.textContent, toast.getAttribute('data-type'), toast.getAttribute('role')])).toEqual([
      ['The account is not active.', 'danger', 'alert'],
    ]);
    expect(currentPath()).toBe('/dashboard');
  });

  it('refreshes the stored user from the server', async () => {
    server.use(
      http.get('*/api/auth/user', () =>
        HttpResponse.json({
          user: {
            id: 1,
            email: 'alex@demo.test',
            first_name: 'Alexandra',
            last_name: 'Taylor',
            full_name: 'Alexandra Taylor',
            role: 'ADMIN',
            associated_practitioner_ids: [],
            business_account: { id: 1, name: 'Brisbane Demo Care', time_zone: 'Australia/Brisbane' },
          },
        }),
      ),
    );
    renderApp('/dashboard', { as: 'ADMIN' });
    expect(await screen.findByTestId('header-first-name')).toHaveTextContent('Alexandra');
  });
});
