// What a finished import or export makes the app read again: only the server data that kind of job changes.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientQueries } from '../../src/entities/clients/queries';
import { routeQueries } from '../../src/entities/routes/queries';
import { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../../src/entities/appointments/queries';
import { renderApp } from './support/harness';
import { server } from './support/fakeApi';
import { useSyncFakeApi } from './support/syncFakeApi';

useSyncFakeApi();

const requests: string[] = [];
const record = ({ request }: { request: Request }) => void requests.push(`${request.method} ${new URL(request.url).pathname}`);
beforeEach(() => server.events.on('request:start', record));
afterEach(() => {
  server.events.removeListener('request:start', record);
  requests.length = 0;
});
const accountReads = () => requests.filter((request) => request === 'GET /api/provider_account/current').length;

/** Runs a job to completion from the header's modal; says which data the app will read again when next shown. */
async function runToCompletion(kind: 'Import' | 'Export') {
  const user = userEvent.setup();
  const { services } = renderApp('/dashboard', { as: 'ADMIN' });
  const { api, queryClient } = services;
  await user.click(await screen.findByRole('button', { name: kind }));
  const dialog = await screen.findByRole('dialog', { name: `${kind} appointments` });
  await within(dialog).findByRole('button', { name: `Start ${kind.toLowerCase()}` });
  await waitFor(() => expect(accountReads()).toBe(1));
  // Lists read earlier in the session.
  const shown = {
    clients: [...clientQueries.lists(), 'list', { page: 1 }],
    appointments: [...appointmentQueries.lists(), 'table', { page: 1 }],
    practitioners: practitionerQueries.all(api).queryKey,
    appointmentTypes: appointmentTypeQueries.all(api).queryKey,
    businessLocations: businessLocationQueries.all(api).queryKey,
    routes: routeQueries.day(api, '2026-11-24').queryKey,
  };
  await waitFor(() => expect(queryClient.getQueryData(shown.practitioners)).toBeDefined());
  queryClient.setQueryData(shown.clients, { clients: [] });
  queryClient.setQueryData(shown.appointments, { appointments: [] });
  queryClient.setQueryData(shown.routes, []);

  await user.click(within(dialog).getByRole('button', { name: `Start ${kind.toLowerCase()}` }));
  if (kind === 'Export') await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
  await waitFor(() => expect(within(dialog).getByTestId('job-status')).toHaveTextContent('Complete'));
  return Object.fromEntries(Object.entries(shown).map(([name, key]) => [name, queryClient.getQueryState(key)?.isInvalidated]));
}

describe('a finished job', () => {
  it('import: the appointments, the clients, the reference lists and the routes (an import may make one stale) are read again, and the provider account at once', async () => {
    expect(await runToCompletion('Import')).toEqual({ clients: true, appointments: true, practitioners: true, appointmentTypes: true, businessLocations: true, routes: true });
    await waitFor(() => expect(accountReads()).toBe(2));
  });

  it('export: the appointments are read again, and the provider account at once; the clients, reference lists and routes are kept', async () => {
    expect(await runToCompletion('Export')).toEqual({ clients: false, appointments: true, practitioners: false, appointmentTypes: false, businessLocations: false, routes: false });
    await waitFor(() => expect(accountReads()).toBe(2));
  });
});
