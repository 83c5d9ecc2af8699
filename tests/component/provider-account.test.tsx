import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { seedJobs, state, useSyncFakeApi } from './support/syncFakeApi';
import { renderApp, renderPage } from './support/harness';
import ProviderAccountPage from '../../src/features/sync/provider-account/ProviderAccountPage';
import AccountSetupPage from '../../src/features/sync/account-setup/AccountSetupPage';

useSyncFakeApi();

describe('/settings/provider-account', () => {
  it('shows the status and only the masked key, and disconnects after confirmation', async () => {
    const user = userEvent.setup();
    renderPage(ProviderAccountPage, { path: '/settings/provider-account', role: 'ADMIN' });
    expect(await screen.findByTestId('provider-status')).toHaveTextContent('ACTIVE');
    expect(screen.getByTestId('provider-key')).toHaveTextContent('••••ab12');
    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(state.current.providerAccount?.status).toBe('ACTIVE');
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.getByTestId('provider-status')).toHaveTextContent('DISCONNECTED'));
    expect(screen.getByText('The practice management system has been disconnected.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reconnect' })).toHaveAttribute('href', '/settings/provider-account/add');
    expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
  });

  it('offers to add an account when none exists', async () => {
    state.current.providerAccount = { id: 1, provider: 'cliniko', status: 'DISCONNECTED', api_key_last4: null, last_error: null, connected_at: null };
    renderPage(ProviderAccountPage, { path: '/settings/provider-account', role: 'ADMIN' });
    expect(await screen.findByTestId('provider-status')).toHaveTextContent('DISCONNECTED');
    expect(screen.getByTestId('provider-key')).toHaveTextContent('—');
  });
});

describe('/settings/provider-account/add', () => {
  it('requires a key, shows the server’s message when the PMS refuses it, and connects a good one', async () => {
    const user = userEvent.setup();
    renderApp('/settings/provider-account/add', { as: 'ADMIN' });
    const form = await screen.findByRole('form', { name: 'Connect provider account' });
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('API key: enter the key');
    await user.type(within(form).getByLabelText('API key'), 'wrong-key');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent('Cliniko refused the API key.'));
    await user.clear(within(form).getByLabelText('API key'));
    await user.type(within(form).getByLabelText('API key'), 'good-key-wxyz');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    // Connected accounts start INITIALIZING, which start-up keeps in account setup.
    await waitFor(() => expect(window.location.pathname).toBe('/settings/account-setup'));
    expect(state.current.providerAccount).toMatchObject({ status: 'INITIALIZING', api_key_last4: 'wxyz' });
    expect(await screen.findByText(/Importing practitioners, business locations and appointment types/)).toBeInTheDocument();
  });
});

describe('connection-error banner', () => {
  it('tells an admin to reconnect', async () => {
    state.current.providerAccount = { id: 1, provider: 'cliniko', status: 'CONNECTION_ERROR', api_key_last4: 'ab12', last_error: 'Cliniko answered 401', connected_at: null };
    renderApp('/dashboard', { as: 'ADMIN' });
    const banner = await screen.findByTestId('connection-error-banner');
    expect(banner).toHaveTextContent('Cliniko answered 401');
    expect(within(banner).getByRole('link')).toHaveAttribute('href', '/settings/provider-account/add');
  });

  it('is not shown to other roles', async () => {
    state.current.providerAccount = { id: 1, provider: 'cliniko', status: 'CONNECTION_ERROR', api_key_last4: 'ab12', last_error: 'x', connected_at: null };
    renderApp('/dashboard', { as: 'REGULAR_USER' });
    await screen.findByTestId('dashboard-greeting');
    expect(screen.queryByTestId('connection-error-banner')).not.toBeInTheDocument();
  });
});

describe('/settings/account-setup wizard', () => {
  it('connects, waits for the reference data, reviews settings, runs the first import and goes to the dashboard', async () => {
    state.current.providerAccount = null;
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'ADMIN' });
    await waitFor(() => expect(window.location.pathname).toBe('/settings/account-setup'));
    const steps = await screen.findByRole('list', { name: 'Setup steps' });
    expect(within(steps).getByText(/1\. Connect/)).toHaveAttribute('aria-current', 'step');
    await user.type(screen.getByLabelText('API key'), 'good-key-1234');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(/Importing practitioners/)).toBeInTheDocument();
    state.current.providerAccount = { ...state.current.providerAccount!, status: 'ACTIVE' };
    // The wizard re-reads the account every 1500 ms while it is INITIALIZING.
    expect(await screen.findByTestId('setup-time-zone', {}, { timeout: 4000 })).toHaveTextContent('Australia/Brisbane');
    expect(within(steps).getByText(/2\. Review/)).toHaveAttribute('aria-current', 'step');
    await user.click(await screen.findByRole('checkbox', { name: /Import automatically/ }));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(state.current.settings.enable_auto_import).toBe(true));
    await user.click(await screen.findByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(screen.getByTestId('job-status')).toHaveTextContent('Complete'));
    await user.click(screen.getByRole('button', { name: 'Go to the dashboard' }));
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });
});

describe('/settings/account-setup for an account already set up', () => {
  it('shows every step done and what was set up when the connected account has completed an import', async () => {
    seedJobs('import', ['COMPLETE', 'ERROR']);
    const user = userEvent.setup();
    renderApp('/settings/account-setup', { as: 'ADMIN' });
    const done = await screen.findByTestId('setup-complete');
    const steps = screen.getByRole('list', { name: 'Setup steps' });
    expect(within(steps).getAllByRole('listitem').map((step) => step.textContent)).toEqual([
      '1. Connect your practice management system (done)',
      '2. Review time zone and sync settings (done)',
      '3. Run the first import (done)',
    ]);
    expect(within(steps).queryByText(/./, { selector: '[aria-current]' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start import' })).not.toBeInTheDocument();
    expect(done).toHaveTextContent('Connected to Cliniko (API key ••••ab12).');
    expect(screen.getByTestId('setup-last-import')).toHaveTextContent('20 Nov 2026 – 27 Nov 2026 (12 created · 3 updated · 1 cancelled · 40 unchanged)');
    expect(within(done).getByRole('link', { name: 'Import history' })).toHaveAttribute('href', '/imports');
    await user.click(within(done).getByRole('button', { name: 'Go to the dashboard' }));
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });

  it('still asks to review and run the first import when no import has completed', async () => {
    seedJobs('import', ['ERROR']);
    renderPage(AccountSetupPage, { path: '/settings/account-setup', role: 'ADMIN' });
    const steps = await screen.findByRole('list', { name: 'Setup steps' });
    await waitFor(() => expect(within(steps).getByText(/2\. Review/)).toHaveAttribute('aria-current', 'step'));
    expect(within(steps).getByText(/1\. Connect/)).toHaveTextContent('(done)');
    expect(screen.queryByTestId('setup-complete')).not.toBeInTheDocument();
  });

  it('asks to reconnect a lost connection even after imports', async () => {
    seedJobs('import', ['COMPLETE']);
    state.current.providerAccount = { id: 1, provider: 'cliniko', status: 'CONNECTION_ERROR', api_key_last4: 'ab12', last_error: 'Cliniko answered 401', connected_at: null };
    renderPage(AccountSetupPage, { path: '/settings/account-setup', role: 'ADMIN' });
    const steps = await screen.findByRole('list', { name: 'Setup steps' });
    expect(within(steps).getByText(/1\. Connect/)).toHaveAttribute('aria-current', 'step');
    expect(await screen.findByLabelText('API key')).toBeInTheDocument();
  });
});
