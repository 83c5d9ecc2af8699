// A login whose email and password open accounts at several care providers (409 CHOOSE_BUSINESS): the login page
// lists them, and logs in to the one chosen.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, PASSWORD, server, tokenFor, usersByRole } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

const BUSINESSES = [{ id: 1, name: 'Brisbane Demo Care' }, { id: 7, name: 'Northside Nursing' }];

function twoBusinesses(bodies: unknown[]) {
  server.use(http.post(api('/auth/login'), async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string; business_account_id?: number };
    bodies.push(body);
    if (body.password !== PASSWORD) return HttpResponse.json({ message: 'Invalid email or password.' }, { status: 401 });
    if (body.business_account_id === undefined) {
      return HttpResponse.json({
        message: 'Your email and password open accounts at several care providers: choose which one to log in to.',
        code: 'CHOOSE_BUSINESS', businesses: BUSINESSES,
      }, { status: 409 });
    }
    const user = usersByRole.ADMIN;
    return HttpResponse.json({ token: tokenFor(user), expires_at: '2030-01-01T00:00:00Z', user });
  }));
}

describe('login with an email of several care providers', () => {
  it('asks which care provider, then logs in to the chosen one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    twoBusinesses(bodies);
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'alex@demo.test');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const choice = await screen.findByRole('group', { name: /open accounts at several care providers/ });
    expect(within(choice).getAllByRole('radio').map((radio) => radio.closest('label')!.textContent)).toEqual(['Brisbane Demo Care', 'Northside Nursing']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // a question, not an error
    expect(currentPath()).toBe('/login');

    await user.click(within(choice).getByRole('radio', { name: 'Northside Nursing' }));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('dashboard-greeting')).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
    expect(bodies).toEqual([
      { email: 'alex@demo.test', password: PASSWORD },
      { email: 'alex@demo.test', password: PASSWORD, business_account_id: 7 },
    ]);
  });

  it('asks again when the email or password is changed after the question', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    twoBusinesses(bodies);
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'alex@demo.test');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.click(await screen.findByRole('radio', { name: 'Brisbane Demo Care' }));
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(bodies.at(-1)).toEqual({ email: 'alex@demo.test', password: `${PASSWORD}x` });
  });
});
