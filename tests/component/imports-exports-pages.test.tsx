import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { seedJobs, state, useSyncFakeApi } from './support/syncFakeApi';
import { renderApp, renderPage } from './support/harness';
import ImportsPage from '../../src/features/sync/imports/ImportsPage';
import ExportsPage from '../../src/features/sync/exports/ExportsPage';
import ImportAddPage from '../../src/features/sync/imports/ImportAddPage';
import ExportAddPage from '../../src/features/sync/exports/ExportAddPage';

useSyncFakeApi();

describe('/imports history', () => {
  it('lists jobs with status, range, filters, counts or error, who and when, and cancels a running one', async () => {
    const [complete, failed, running] = seedJobs('import', ['COMPLETE', 'ERROR', 'INPROGRESS']);
    const user = userEvent.setup();
    renderPage(ImportsPage, { path: '/imports', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Imports history' });
    const rows = await within(table).findAllByTestId('import-row');
    expect(rows).toHaveLength(3);
    // Newest first.
    expect(rows[0]).toHaveTextContent('In progress');
    expect(rows[1]).toHaveTextContent('Error');
    expect(rows[1]).toHaveTextContent('The practice management system refused the API key.');
    expect(within(rows[2]).getByRole('cell', { name: 'Complete' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('12 created · 3 updated · 1 cancelled · 40 unchanged');
    expect(rows[2]).toHaveTextContent('20 Nov 2026 – 27 Nov 2026');
    expect(rows[2]).toHaveTextContent('Alex Taylor');
    await waitFor(() => expect(rows[2]).toHaveTextContent('Practitioners: Pat Nguyen, Jo Smith'));
    expect(within(rows[2]).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(complete.id).not.toBe(failed.id);

    await user.click(within(rows[0]).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(state.current.jobs.get(`import:${running.id}`)?.status).toBe('CANCELLED'));
    await waitFor(() => expect(within(table).getAllByTestId('import-row')[0]).toHaveTextContent('Cancelled'));
    expect(await screen.findByText('The import has been cancelled.')).toBeInTheDocument();
  });

  it('pages through the history', async () => {
    seedJobs('import', Array.from({ length: 12 }, () => 'COMPLETE' as const));
    const user = userEvent.setup();
    renderPage(ImportsPage, { path: '/imports', role: 'ADMIN' });
    expect(await screen.findByTestId('pagination-summary')).toHaveTextContent('1–10 of 12');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getAllByTestId('import-row')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('import-row')).toHaveLength(2));
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('11–12 of 12');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('is for admins only', async () => {
    renderApp('/imports', { as: 'REGULAR_USER' });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });
});

describe('/exports history and the add pages', () => {
  it('shows export counts and conflicts', async () => {
    seedJobs('export', ['COMPLETE']);
    renderPage(ExportsPage, { path: '/exports', role: 'ADMIN' });
    const row = await screen.findByTestId('export-row');
    expect(row).toHaveTextContent('5 exported · 2 unchanged · 1 conflicts');
  });

  it('/imports/add hosts the import form and runs it to completion', async () => {
    const user = userEvent.setup();
    renderPage(ImportAddPage, { path: '/imports/add', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(screen.getByTestId('job-status')).toHaveTextContent('Complete'));
    expect(screen.getByTestId('count-Created')).toHaveTextContent('12');
  });

  it('/exports/add asks for confirmation before exporting', async () => {
    const user = userEvent.setup();
    renderPage(ExportAddPage, { path: '/exports/add', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Start export' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
    await waitFor(() => expect(state.current.created).toHaveLength(1));
    expect(state.current.created[0].kind).toBe('export');
  });
});
