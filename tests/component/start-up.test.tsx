import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { received, server } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

const providerAccount = (body: unknown, status = 200) =>
  http.get('*/api/provider_account/current', () => HttpResponse.json(body as object, { status }));

// The machines' transitions are walked by tests/model: a provider account missing or INITIALIZING leading to account
// setup (start-up.model), the user read again on a page load (auth.model, LOAD_USER → done:fetchUser). This file
// keeps what the models do not check: the calls of a restored session, and the toasts' kind and role.
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
});
