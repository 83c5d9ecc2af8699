import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { state, useSyncFakeApi } from './support/syncFakeApi';
import { renderPage } from './support/harness';
import SyncSettingsPage from '../../src/features/sync/settings/SyncSettingsPage';
import { server } from './support/fakeApi';

useSyncFakeApi();

async function openPage() {
  const user = userEvent.setup();
  renderPage(SyncSettingsPage, { path: '/settings/sync-settings', role: 'ADMIN' });
  const form = await screen.findByRole('form', { name: 'Sync settings' });
  return { user, form };
}

describe('/settings/sync-settings', () => {
  it('saves automatic sync, days ahead and filters', async () => {
    const { user, form } = await openPage();
    expect(within(form).getByLabelText('Days ahead')).toHaveValue(14);
    await user.click(within(form).getByRole('checkbox', { name: /Export automatically/ }));
    await user.clear(within(form).getByLabelText('Days ahead'));
    await user.type(within(form).getByLabelText('Days ahead'), '10');
    await user.click(within(form).getByTestId('multiselect-Practitioners'));
    await user.click(await screen.findByRole('option', { name: 'Jo Smith' }));
    await user.keyboard('{Escape}');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.current.settings).toEqual({
      enable_auto_import: false,
      enable_auto_export: true,
      ahead_days: 10,
      filters: { practitioner_ids: [8], appointment_type_ids: [], business_location_ids: [] },
    }));
    expect(await screen.findByText('Sync settings have been saved.')).toBeInTheDocument();
  });

  it('refuses more days ahead than one import or export range holds, on the field, without sending', async () => {
    const { user, form } = await openPage();
    const field = within(form).getByLabelText('Days ahead');
    expect(field).toHaveAccessibleDescription(/From 0 to 61: an import or export covers at most 62 days/);
    await user.clear(field);
    await user.type(field, '62');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Days ahead: enter a whole number from 0 to 61.');
    expect(field).toBeInvalid();
    expect(field).toHaveAccessibleDescription(/Days ahead: enter a whole number from 0 to 61\./);
    expect(state.current.settings.ahead_days).toBe(14);
    await user.clear(field);
    await user.type(field, '61');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.current.settings.ahead_days).toBe(61));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows days ahead saved above the limit and asks for a valid number before saving', async () => {
    state.current.settings = { ...state.current.settings, enable_auto_import: true, ahead_days: 90 };
    const { user, form } = await openPage();
    expect(within(form).getByLabelText('Days ahead')).toHaveValue(90);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Days ahead: enter a whole number from 0 to 61.');
    expect(state.current.settings.ahead_days).toBe(90);
  });

  it('shows a 422 naming a filter under that filter', async () => {
    server.use(http.put('*/api/sync_settings', () => HttpResponse.json({ message: 'The filters are invalid.', errors: ['practitioner_ids: 99 is not one of yours'] }, { status: 422 })));
    const { user, form } = await openPage();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    // Under the Practitioners filter, without the field's raw name.
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent(/^99 is not one of yours\.$/));
    expect(form).not.toHaveTextContent('practitioner_ids');
  });

  it('shows the contract\'s own refusal under Days ahead, in words', async () => {
    server.use(http.put('*/api/sync_settings', () => HttpResponse.json({ message: 'Invalid request: ahead_days must be <= 61.', errors: ['ahead_days must be <= 61'], code: 'VALIDATION_FAILED' }, { status: 422 })));
    const { user, form } = await openPage();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getByLabelText('Days ahead')).toHaveAccessibleDescription(/^Must be 61 or less\./));
    expect(form).not.toHaveTextContent('ahead_days');
  });
});
