import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, delay } from 'msw';
import { AUTH_TOKEN_KEY } from '../../src/machines/auth';
import { PASSWORD, server, tokenFor, usersByRole } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

async function logIn(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('has labelled Email and Password fields and a Log in button', async () => {
    renderApp('/login');
    expect(await screen.findByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(document.title).toBe('Log in - Rounds');
  });

  it("shows the server's message when the login fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/login');
    await logIn('alex@demo.test', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(currentPath()).toBe('/login');
  });

  it('shows the rate-limit message on 429', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post('*/api/auth/login', () => HttpResponse.json({ message: 'Too many login attempts. Try again in a minute.' }, { status: 429 })));
    renderApp('/login');
    await logIn('alex@demo.test', PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many login attempts. Try again in a minute.');
  });

  it('disables the button while logging in, then lands on the dashboard with the session stored', async () => {
    server.use(
      http.post('*/api/auth/login', async () => {
        await delay(50);
        const user = usersByRole.ADMIN;
        return HttpResponse.json({ token: tokenFor(user), expires_at: '2030-01-01T00:00:00Z', user });
      }),
    );
    renderApp('/login');
    await logIn('alex@demo.test', PASSWORD);
    expect(screen.getByRole('button', { name: /Logging in/ })).toBeDisabled();
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent(/^Good (morning|afternoon|evening), Alex$/);
    expect(currentPath()).toBe('/dashboard');
    expect(JSON.parse(localStorage.getItem(AUTH_TOKEN_KEY)!)).toBe(tokenFor(usersByRole.ADMIN));
  });

  it('sends a logged-in visitor of /login to the dashboard', async () => {
    renderApp('/login', { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Sam');
  });
});
