import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { routes } from '../../src/router/routeTable';
import { received, server } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

const protectedRoutes = routes.filter((route) => route.requiresAuth);
const adminOnly = routes.filter((route) => route.roles?.length === 1 && route.roles[0] === 'ADMIN');

describe('route guards', () => {
  it.each(protectedRoutes.map((route) => route.path))('sends an unauthenticated visitor of %s to /login', async (path) => {
    renderApp(path);
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('calls no API on start-up while unauthenticated', async () => {
    renderApp('/login');
    await screen.findByRole('button', { name: 'Log in' });
    expect(received.filter((request) => request.path !== '/api/config')).toEqual([]);
  });

  it.each(adminOnly.map((route) => route.path))('sends a REGULAR_USER visiting %s to /dashboard', async (path) => {
    renderApp(path, { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(await screen.findByTestId('dashboard-greeting')).toBeInTheDocument();
    expect(screen.getAllByText(/^You need an administrator account to open /)).toHaveLength(1);
  });

  it('tells a non-admin why an admin address took them to the dashboard', async () => {
    renderApp('/settings/sync-settings', { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    const toast = await screen.findByText('You need an administrator account to open Settings → Sync settings.');
    expect(toast.closest('[data-testid="toast"]')).toHaveAttribute('data-type', 'warning');
  });

  it('keeps a practitioner out of Nearby search but lets a regular user in', async () => {
    renderApp('/search', { as: 'PRACTITIONER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(await screen.findByText('Nearby search is for administrators and staff: practitioner accounts cannot open it.')).toBeInTheDocument();
  });

  it.each([
    ['/search', 'REGULAR_USER', 'Nearby search'],
    ['/settings/appointment-types', 'PRACTITIONER', 'Appointment types'],
    ['/settings/my-account', 'PRACTITIONER', 'My account'],
    ['/reports/client-geography', 'ADMIN', 'Client geography'],
  ] as const)('lets %s through for %s', async (path, role, heading) => {
    renderApp(path, { as: role });
    // A page's code loads on first use (the report's map is large to transform): more than the usual wait under load.
    expect(await screen.findByRole('heading', { name: heading, level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(currentPath()).toBe(path);
  });

  it('redirects / to /dashboard when logged in and to /login otherwise', async () => {
    renderApp('/', { as: 'ADMIN' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it('redirects / to /login when logged out', async () => {
    renderApp('/');
    await waitFor(() => expect(currentPath()).toBe('/login'));
  });

  it('shows the not-found page for an unknown path, logged in or not', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(currentPath()).toBe('/no/such/page');
    expect(document.title).toBe('Page not found - Rounds');
  });

  it('serves /errors/404 and /errors/500 outside the layout', async () => {
    renderApp('/errors/500', { as: 'ADMIN' });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('serves the public client availability page without a login', async () => {
    renderApp('/client/update-availability');
    await waitFor(() => expect(document.title).toBe('Update availability - Rounds'));
    expect(currentPath()).toBe('/client/update-availability');
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('a 401 from any authenticated call logs out and goes to /login', async () => {
    server.use(http.get('*/api/provider_account/current', () => HttpResponse.json({ message: 'Session expired.' }, { status: 401 })));
    renderApp('/clients', { as: 'ADMIN' });
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(localStorage.getItem('rounds.auth.token')).toBeNull();
  });
});

describe('page titles', () => {
  it.each(routes.filter((route) => route.requiresAuth).map((route) => [route.path, route.title]))(
    '%s is titled "%s - Rounds"',
    async (path, title) => {
      // An admin is taken on from the payment-required page to Subscription info; the page itself is for the others.
      renderApp(path, { as: path === '/payment-required' ? 'REGULAR_USER' : 'ADMIN' });
      await waitFor(() => expect(document.title).toBe(`${title} - Rounds`));
      expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    },
  );
});
