import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY } from '../../src/machines/auth';
import { PASSWORD } from './support/fakeApi';
import { currentPath, renderApp, renderPage, useFakeApi } from './support/harness';
import MyAccountPage from '../../src/features/settings/MyAccountPage';

useFakeApi();

describe('my account', () => {
  it('saves a new first name, confirms with a toast and updates the header', async () => {
    const user = userEvent.setup();
    renderApp('/settings/my-account', { as: 'REGULAR_USER' });
    const firstName = await screen.findByLabelText('First name');
    expect(firstName).toHaveValue('Sam');
    expect(screen.getByLabelText('Last name')).toHaveValue('Taylor');
    expect(screen.getByLabelText('Email')).toHaveValue('sam@demo.test');
    await user.clear(firstName);
    await user.type(firstName, 'Samantha');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const toast = await screen.findByText('Your account has been updated.');
    expect(toast.closest('[role="status"]')).toHaveAttribute('data-type', 'success');
    expect(screen.getByTestId('header-first-name')).toHaveTextContent('Samantha');
  });

  it("changes the password with the current one and shows the server's message when it is wrong", async () => {
    const user = userEvent.setup();
    renderPage(MyAccountPage, { path: '/settings/my-account', role: 'ADMIN' });
    await user.type(await screen.findByLabelText('Current password'), 'not-it');
    await user.type(screen.getByLabelText('New password'), 'a-new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Current password is incorrect.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Current password is incorrect.');

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your account has been updated.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('asks for the current password, under its field, before sending a new password or email', async () => {
    const user = userEvent.setup();
    renderPage(MyAccountPage, { path: '/settings/my-account', role: 'ADMIN' });
    await user.type(await screen.findByLabelText('New password'), 'a-new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Enter your current password to set a new one.');
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'new-address@demo.test');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Enter your current password to change your email.');
    expect(screen.getByLabelText('Current password')).toHaveFocus();
  });

  it("shows the server's refusal of a common new password under the New password field, without the field's name", async () => {
    const user = userEvent.setup();
    renderPage(MyAccountPage, { path: '/settings/my-account', role: 'ADMIN' });
    await user.type(await screen.findByLabelText('Current password'), PASSWORD);
    await user.type(screen.getByLabelText('New password'), 'Password123!');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const refusal = 'This password is one of the most common passwords, which attackers try first. Choose a less common one.';
    const newPassword = screen.getByLabelText('New password');
    await waitFor(() => expect(newPassword).toHaveAttribute('aria-invalid', 'true'));
    expect(newPassword.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(newPassword.getAttribute('aria-describedby')!.split(' ')[0])).toHaveTextContent(refusal);
    expect(screen.getByRole('form', { name: 'My account' })).not.toHaveTextContent('new_password');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // nothing at the top of the form
    expect(newPassword).toHaveFocus();
  });

  it('shows an email another account uses under the Email field', async () => {
    const user = userEvent.setup();
    renderPage(MyAccountPage, { path: '/settings/my-account', role: 'ADMIN' });
    await user.clear(await screen.findByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'taken@demo.test');
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('That email is already used by another account.'));
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });

  it('names what is missing or malformed under each field before sending anything', async () => {
    const user = userEvent.setup();
    renderPage(MyAccountPage, { path: '/settings/my-account', role: 'REGULAR_USER' });
    await user.clear(await screen.findByLabelText('First name'));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('Enter your first name.');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter an email address such as name@example.com.');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/^Use at least 10 characters\./);
    expect(screen.getByLabelText('First name')).toHaveFocus();
    expect(screen.queryByText('Your account has been updated.')).not.toBeInTheDocument();
  });
});

describe('reset password', () => {
  it('requests a reset link by email', async () => {
    const user = userEvent.setup();
    renderApp('/reset-password');
    await user.type(await screen.findByLabelText('Email'), 'alex@demo.test');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('If that address has an account, a reset link is on its way.')).toBeInTheDocument();
  });

  it('sets a new password with the token from the link', async () => {
    const user = userEvent.setup();
    renderApp('/reset-password?token=good-reset');
    await user.type(await screen.findByLabelText('New password'), 'fresh-secret-22');
    await user.type(screen.getByLabelText('Confirm new password'), 'fresh-secret-22');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in with your new password' })).toHaveAttribute('href', '/login');
  });

  it('refuses two different passwords and shows an expired link', async () => {
    const user = userEvent.setup();
    renderApp('/reset-password?token=old-reset');
    await user.type(await screen.findByLabelText('New password'), 'fresh-secret-22');
    await user.type(screen.getByLabelText('Confirm new password'), 'fresh-secret-23');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The two passwords do not match.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'fresh-secret-22');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link is invalid or has expired.')).toBeInTheDocument();
  });
});

describe('login as', () => {
  it('exchanges the token and lands on the dashboard', async () => {
    renderApp('/login-as?token=one-time-admin');
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Alex');
    expect(currentPath()).toBe('/dashboard');
    expect(JSON.parse(localStorage.getItem(AUTH_TOKEN_KEY)!)).toBe('token-1');
  });

  it('replaces a session already open in this browser', async () => {
    renderApp('/login-as?token=one-time-admin', { as: 'PRACTITIONER' });
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Alex');
  });

  it('shows the error for a spent or unknown token', async () => {
    renderApp('/login-as?token=spent');
    expect(await screen.findByText('This login link is invalid or has expired.')).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/login-as'));
  });

  it('says so when the link has no token', async () => {
    renderApp('/login-as');
    expect(await screen.findByText('This login link is missing its token.')).toBeInTheDocument();
  });
});
