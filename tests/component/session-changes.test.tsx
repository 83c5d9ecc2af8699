// An open session follows what happened to the account meanwhile: a role changed by an administrator shows at once
// (guards and menus decide on the user the server answers, not on the one this browser stored), a deactivated user
// is told why they are on the login page, and a failed login is not reported as a fault of the program.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { apiClient } from '../../src/api/session';
import { api, server, usersByRole } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();
afterEach(() => vi.restoreAllMocks());

const promoted = { ...usersByRole.REGULAR_USER, role: 'ADMIN' as const };
const answerUser = (user: typeof promoted) => server.use(http.get(api('/auth/user'), () => HttpResponse.json({ user })));
const settingsLink = () => within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Settings' });

describe('a role changed while the session is open', () => {
  it('lets a user promoted to administrator open an admin page on the first visit, without “You need an administrator account”', async () => {
    answerUser(promoted);
    renderApp('/settings', { as: 'REGULAR_USER' });
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/settings');
    expect(screen.queryByText(/You need an administrator account/)).not.toBeInTheDocument();
  });

  it('shows the promotion when the user comes back to the tab', async () => {
    renderApp('/dashboard', { as: 'REGULAR_USER' });
    await screen.findByTestId('dashboard-greeting');
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument());
    expect(settingsLink()).not.toBeInTheDocument();

    answerUser(promoted);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(settingsLink()).toBeInTheDocument());
  });

  it('reads the user again when the server refuses a call, so a demoted administrator’s menu follows', async () => {
    server.use(http.get(api('/subscription'), () => HttpResponse.json({ message: 'Your role does not allow this action.', code: 'FORBIDDEN' }, { status: 403 })));
    renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    await waitFor(() => expect(settingsLink()).toBeInTheDocument());

    answerUser({ ...usersByRole.ADMIN, role: 'REGULAR_USER' } as never);
    await act(async () => {
      await apiClient.GET('/subscription');
    });
    await waitFor(() => expect(settingsLink()).not.toBeInTheDocument());
  });
});

describe('a deactivated user', () => {
  it('is told on the login page why their session ended', async () => {
    const deactivated = { message: 'Your account has been deactivated. Ask your administrator to reactivate it.', code: '40000' };
    server.use(
      http.get(api('/auth/user'), () => HttpResponse.json(deactivated, { status: 401 })),
      http.get(api('/dashboard'), () => HttpResponse.json(deactivated, { status: 401 })),
      http.get(api('/provider_account/current'), () => HttpResponse.json(deactivated, { status: 401 })),
    );
    renderApp('/dashboard', { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account has been deactivated. Ask your administrator to reactivate it.');
  });
});

describe('a failed login', () => {
  it('shows the server’s words and writes no error to the console', async () => {
    const logged = vi.spyOn(console, 'error');
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'alex@demo.test');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(logged).not.toHaveBeenCalled();
  });
});
