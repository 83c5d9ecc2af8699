import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { state, useSyncFakeApi } from './support/syncFakeApi';
import { renderApp, renderWithServices } from './support/harness';
import { BusinessDefaultsProvider } from '../../src/app/BusinessDefaultsProvider';
import { HeaderSyncLinks } from '../../src/features/sync';

useSyncFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');

/** The modal opened from the header's Import or Export: those links alone, or (`inApp`) the whole app, to follow where it goes. */
async function openModal(kind: 'Import' | 'Export', as: 'ADMIN' | 'REGULAR_USER' | 'PRACTITIONER' = 'ADMIN', { inApp = false } = {}) {
  const user = userEvent.setup();
  if (inApp) renderApp('/dashboard', { as });
  else renderWithServices(<BusinessDefaultsProvider><HeaderSyncLinks /></BusinessDefaultsProvider>, { role: as });
  await user.click(await screen.findByRole('button', { name: kind }));
  const dialog = await screen.findByRole('dialog', { name: `${kind} appointments` });
  await within(dialog).findByRole('button', { name: `Start ${kind.toLowerCase()}` });
  return { user, dialog };
}

const toasts = () => screen.queryAllByTestId('toast').map((toast) => [toast.dataset.type, toast.textContent]);

describe('import modal', () => {
  it('prefills today..today+7, sends the request and shows the counts when the job completes', async () => {
    // The job stays in progress until the test has seen it so, then completes.
    state.current.pollStatuses = ['INPROGRESS'];
    const { user, dialog } = await openModal('Import');
    const start = today();
    expect(within(dialog).getByTestId('date-range-value')).toHaveTextContent(/–/);
    expect(within(dialog).getByText(/Imports overwrite existing data .*including edits made in Rounds — except arrival times changed here and not exported yet/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'View history' })).toHaveAttribute('href', '/imports');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0]).toEqual({
      kind: 'import',
      body: { start_date: start.toString(), end_date: start.add({ days: 7 }).toString(), appointment_type_ids: [], practitioner_ids: [], business_location_ids: [] },
    });
    expect(within(dialog).queryByRole('form')).not.toBeInTheDocument();
    expect(await within(dialog).findByTestId('job-status')).toHaveTextContent('In progress');
    state.current.pollStatuses = ['COMPLETE'];
    await waitFor(() => expect(within(dialog).getByTestId('job-status')).toHaveTextContent('Complete'));
    expect(within(dialog).getByTestId('count-Created')).toHaveTextContent('12');
    expect(within(dialog).getByTestId('count-Updated')).toHaveTextContent('3');
    expect(within(dialog).getByTestId('count-Cancelled')).toHaveTextContent('1');
    expect(within(dialog).getByTestId('count-Unchanged')).toHaveTextContent('40');
    expect(within(dialog).queryByTestId('import-nothing-changed')).not.toBeInTheDocument();
  });

  it('says so when an import changed nothing, with the appointments that were already up to date', async () => {
    state.current.importResult = { appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0, appointments_unchanged: 12 };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'One day only' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(within(dialog).getByTestId('job-status')).toHaveTextContent('Complete'));
    expect(within(dialog).getByTestId('count-Unchanged')).toHaveTextContent('12');
    expect(within(dialog).getByTestId('import-nothing-changed')).toHaveTextContent('Nothing changed: 12 appointments were already up to date.');
  });

  it('prefills today..today+ahead_days and the filters when automatic import is on', async () => {
    state.current.settings = { enable_auto_import: true, enable_auto_export: false, ahead_days: 21, filters: { practitioner_ids: [8], appointment_type_ids: [2], business_location_ids: [1, 2] } };
    const { user, dialog } = await openModal('Import');
    await waitFor(() => expect(within(dialog).getByTestId('multiselect-Practitioners')).toHaveTextContent('Jo Smith'));
    expect(within(dialog).getByTestId('multiselect-Business locations')).toHaveTextContent('Brisbane CBDSouthside');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0].body).toMatchObject({
      end_date: today().add({ days: 21 }).toString(),
      practitioner_ids: [8],
      appointment_type_ids: [2],
      business_location_ids: [1, 2],
    });
  });

  it('keeps days ahead saved above the limit within the longest range the server accepts', async () => {
    state.current.settings = { enable_auto_import: true, enable_auto_export: false, ahead_days: 90, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0].body).toMatchObject({ start_date: today().toString(), end_date: today().add({ days: 61 }).toString() });
  });

  it('refuses a range longer than 62 days on the date field and sends nothing', async () => {
    const { user, dialog } = await openModal('Import');
    await user.click(within(within(dialog).getByRole('group', { name: 'Date range presets' })).getByRole('button', { name: 'This month' }));
    await user.click(within(dialog).getByTestId('date-range-value'));
    await user.click(await screen.findByRole('button', { name: 'Go to the Next Month' }));
    await user.click(screen.getByRole('button', { name: 'Go to the Next Month' }));
    const first = today().with({ day: 1 });
    const end = first.add({ months: 3 }).with({ day: 15 });
    const month = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][end.month - 1];
    await user.click(screen.getByRole('button', { name: new RegExp(`, ${month} 15th, ${end.year}$`) }));
    await user.keyboard('{Escape}');
    const days = first.until(end, { largestUnit: 'days' }).days + 1;
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    const problem = await within(dialog).findByRole('alert');
    expect(problem).toHaveTextContent(`Choose at most 62 days: this range has ${days}.`);
    expect(within(dialog).getByRole('button', { name: /Date range/ })).toHaveAccessibleDescription(`Choose at most 62 days: this range has ${days}.`);
    expect(state.current.created).toHaveLength(0);
    expect(toasts()).toEqual([]);
    await user.click(within(within(dialog).getByRole('group', { name: 'Date range presets' })).getByRole('button', { name: 'Next 30 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
  });

  it('refuses a missing date range with an error toast and sends nothing', async () => {
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Clear dates' }));
    expect(within(dialog).getByTestId('date-range-value')).toHaveTextContent('Select dates');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(toasts()).toContainEqual(['danger', 'Date range is required']));
    expect(state.current.created).toHaveLength(0);
  });

  it('applies the presets', async () => {
    const { user, dialog } = await openModal('Import');
    const presets = within(dialog).getByRole('group', { name: 'Date range presets' });
    expect(within(presets).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Today', 'Next 7 days', 'Next 14 days', 'Next 30 days', 'This month', 'Previous month', 'Next month',
    ]);
    await user.click(within(presets).getByRole('button', { name: 'Previous month' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    const first = today().with({ day: 1 }).subtract({ months: 1 });
    expect(state.current.created[0].body).toMatchObject({ start_date: first.toString(), end_date: first.with({ day: first.daysInMonth }).toString() });
  });

  it('shows tags for up to three selections and a counter above three; inactive practitioners are not offered', async () => {
    const { user, dialog } = await openModal('Import');
    const button = within(dialog).getByTestId('multiselect-Practitioners');
    expect(button).toHaveTextContent('All');
    await user.click(button);
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByText('Retired Person')).not.toBeInTheDocument();
    for (const name of ['Pat Nguyen', 'Jo Smith', 'Lee Brown']) await user.click(within(listbox).getByRole('option', { name }));
    expect(within(button).getAllByTestId('multiselect-tag').map((tag) => tag.textContent)).toEqual(['Pat Nguyen', 'Jo Smith', 'Lee Brown']);
    await user.click(within(listbox).getByRole('option', { name: 'Kim Lee' }));
    expect(within(button).queryAllByTestId('multiselect-tag')).toHaveLength(0);
    expect(button).toHaveTextContent('4 selected');
  });

  it('FAST mode sends one day with the end date equal to the start date, practitioners only', async () => {
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'One day only' }));
    expect(within(dialog).queryByTestId('multiselect-Business locations')).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId('multiselect-Appointment types')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Tomorrow' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    const tomorrow = today().add({ days: 1 }).toString();
    expect(state.current.created[0].body).toMatchObject({ start_date: tomorrow, end_date: tomorrow, appointment_type_ids: [], business_location_ids: [] });
  });

  it('shows a 422 message, then the first of its errors', async () => {
    state.current.createFailure = { status: 422, body: { message: 'The request is invalid.', errors: ['end_date: must not be before start_date', 'second'] } };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(toasts()).toEqual([
      ['danger', 'The request is invalid.'],
      ['danger', 'end_date: must not be before start_date'],
    ]));
    expect(within(dialog).getByRole('button', { name: 'Start import' })).toBeEnabled();
  });

  it('shows a 422 the server repeats in its errors once, and once again when the user retries', async () => {
    state.current.createFailure = { status: 422, body: { message: 'The date range can be at most 62 days (got 75).', errors: ['The date range can be at most 62 days (got 75).'], code: 'VALIDATION_FAILED' } };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    await waitFor(() => expect(toasts()).toEqual([['danger', 'The date range can be at most 62 days (got 75).']]));
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(2));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Start import' })).toBeEnabled());
    expect(toasts()).toEqual([['danger', 'The date range can be at most 62 days (got 75).']]);
  });

  it('falls back to its own “Could not create import” message when the server says nothing useful', async () => {
    state.current.createFailure = { status: 500, body: {} };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(toasts()).toEqual([['danger', 'An error has occurred. Could not create import.']]));
  });

  it('PROVIDER_ACCOUNT_NOT_SETUP warns once and goes to account setup', async () => {
    state.current.createFailure = { status: 409, body: { message: 'Set up first.', code: 'PROVIDER_ACCOUNT_NOT_SETUP' } };
    const { user, dialog } = await openModal('Import', 'ADMIN', { inApp: true });
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(window.location.pathname).toBe('/settings/account-setup'));
    expect(toasts()).toEqual([['warning', 'The account setup is not complete.']]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import appointments' })).not.toBeInTheDocument());
  });

  it('PROVIDER_ACCOUNT_NOT_ACTIVE shows one danger toast', async () => {
    state.current.createFailure = { status: 409, body: { message: 'Not active.', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' } };
    const { user, dialog } = await openModal('Import');
    await user.click(within(dialog).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(toasts()).toEqual([['danger', 'The account is not active.']]));
  });

  it('shows the fallback messages when the lists cannot be loaded', async () => {
    const { server } = await import('./support/fakeApi');
    const { http, HttpResponse } = await import('msw');
    server.use(
      http.get('*/api/business_locations/all', () => HttpResponse.json({}, { status: 500 })),
      http.get('*/api/practitioners/all', () => HttpResponse.json({}, { status: 500 })),
      http.get('*/api/appointment_types/all', () => HttpResponse.json({}, { status: 500 })),
    );
    await openModal('Import');
    await waitFor(() => expect(toasts().map(([, text]) => text).sort()).toEqual([
      'An error has occurred. Could not load appointment types list.',
      'An error has occurred. Could not load business location list.',
      'An error has occurred. Could not load practitioners list.',
    ]));
  });
});

describe('practitioner role', () => {
  it('has no Import or Export in the header: imports and exports are the office\'s', async () => {
    renderApp('/dashboard', { as: 'PRACTITIONER' });
    await screen.findByRole('button', { name: 'Toggle sidebar' });
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});

describe('opened from a page showing some days', () => {
  const day = () => today().add({ days: 9 });

  it('Import opens on the day of the schedule being viewed, not on the next 7 days', async () => {
    const user = userEvent.setup();
    renderApp(`/appointments?view=schedule&start=${day()}&end=${day()}`, { as: 'ADMIN' });
    await screen.findByRole('heading', { name: 'Appointments' });
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import appointments' });
    await user.click(await within(dialog).findByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0].body).toMatchObject({ start_date: day().toString(), end_date: day().toString() });
  });

  it('Export opens on the days of the list being viewed', async () => {
    const user = userEvent.setup();
    renderApp(`/appointments?view=list&start=${day()}&end=${day().add({ days: 2 })}`, { as: 'ADMIN' });
    await screen.findByRole('heading', { name: 'Appointments' });
    await user.click(await screen.findByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export appointments' });
    await user.click(await within(dialog).findByRole('button', { name: 'Start export' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0].body).toMatchObject({ start_date: day().toString(), end_date: day().add({ days: 2 }).toString() });
  });
});

describe('export modal', () => {
  it('asks for confirmation and shows its counts, with no "scheduled to start shortly" toast after the dialog says Complete', async () => {
    const { user, dialog } = await openModal('Export');
    expect(within(dialog).getByTestId('multiselect-Practitioners')).toHaveTextContent('Any');
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Start export' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(state.current.created).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(state.current.created).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Start export' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
    expect(await within(dialog).findByTestId('job-status')).toHaveTextContent(/In progress|Complete/);
    await waitFor(() => expect(within(dialog).getByTestId('job-status')).toHaveTextContent('Complete'));
    await waitFor(() => expect(within(dialog).getByTestId('count-Exported')).toHaveTextContent('5'));
    expect(within(dialog).getByTestId('count-Conflicts')).toHaveTextContent('1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toasts()).toEqual([]);
  });

  it('the confirmation names how many visits will change and warns of routes changed since they were optimised', async () => {
    state.current.exportPreview = {
      visits_to_change: 7,
      changed_routes: [
        { date: '2026-11-25', practitioner_id: 7, practitioner_name: 'Pat Nguyen' },
        { date: '2026-11-26', practitioner_id: 8, practitioner_name: 'Jo Smith' },
      ],
    };
    const { user, dialog } = await openModal('Export');
    await user.click(within(dialog).getByRole('button', { name: 'Start export' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Export appointment times?' });
    expect(await within(confirm).findByText('7 visits will change in your practice management software (their time or practitioner). This cannot be undone.')).toBeInTheDocument();
    expect(within(confirm).getByTestId('export-changed-routes')).toHaveTextContent(
      '2 routes changed after they were optimised, so their times may no longer fit the day: Pat Nguyen (25 Nov 2026), Jo Smith (26 Nov 2026). Optimise those days again before exporting, or export the times as they are.',
    );
    expect(state.current.created).toHaveLength(0);

    state.current.exportPreview = { visits_to_change: 1, changed_routes: [] };
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start export' }));
    const again = await screen.findByRole('alertdialog', { name: 'Export appointment times?' });
    expect(await within(again).findByText('1 visit will change in your practice management software (its time or practitioner). This cannot be undone.')).toBeInTheDocument();
    expect(within(again).queryByTestId('export-changed-routes')).toBeNull();
  });

  it('closing the export modal does not stop polling: it finishes in the background with a toast', async () => {
    state.current.pollStatuses = ['INPROGRESS', 'INPROGRESS', 'INPROGRESS', 'INPROGRESS', 'COMPLETE'];
    const { user, dialog } = await openModal('Export');
    await user.click(within(dialog).getByRole('button', { name: 'Start export' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
    await waitFor(() => expect(state.current.polls.length).toBeGreaterThanOrEqual(1));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(state.current.polls.length).toBe(5));
    await waitFor(() => expect(toasts()).toContainEqual(['success', 'Export complete: 5 exported, 2 unchanged, 1 conflicts.']));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(state.current.polls.length).toBe(5);
  });
});
