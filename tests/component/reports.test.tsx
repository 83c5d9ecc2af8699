// Reports: the index lists every report (working ones as links); Clients missing address shows its summary, chart
// and table for the filters in the address (which survive a reload), sorts, downloads exactly the table as CSV, and
// opens a client from a row.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { api, received as sent, server } from './support/fakeApi';
import { makeClient, makeTag } from './support/fixtures';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import ReportsIndexPage from '../../src/features/reports/ReportsIndexPage';
import ClientsMissingAddressReport from '../../src/features/reports/ClientsMissingAddressReport';
import { reportFilterHandlers } from './support/reports';

useFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');
const ROWS = [
  {
    client_id: 11, client_name: 'Margaret Jones', address: '5 Ann Street', city: null, postcode: '4000', geo_precision: 'street', problems: ['incomplete_address'],
    next_visit: { appointment_id: 90, starts_at: '2030-03-03T22:00:00Z', practitioner_id: 7, practitioner_name: 'Pat Nguyen' },
  },
  {
    client_id: 12, client_name: 'Arthur "Art" Bell', address: '', city: null, postcode: null, geo_precision: 'none', problems: ['incomplete_address', 'no_point'],
    next_visit: null,
  },
];
const SUMMARY = { clients: 2, incomplete_address: 2, no_point: 1, approximate_point: 0 };

const reportRequests = () =>
  sent.filter((request) => request.path === '/api/reports/clients-missing-address').map((request) => new URLSearchParams(request.search ?? ''));

beforeEach(() => {
  server.use(
    ...reportFilterHandlers(),
    http.get(api('/reports/clients-missing-address'), () => HttpResponse.json({ rows: ROWS, summary: SUMMARY })),
    http.get(api('/clients/11'), () => HttpResponse.json({ client: makeClient({ id: 11, first_name: 'Margaret', last_name: 'Jones' }) })),
    http.get(api('/tags/all'), () => HttpResponse.json({ tags: [makeTag(1, 'Weekly')] })),
  );
});
afterEach(() => vi.restoreAllMocks());

describe('the reports index', () => {
  it('lists the eight reports, each a link to its page', async () => {
    renderPage(ReportsIndexPage, { path: '/reports', role: 'ADMIN' });
    const list = await screen.findByRole('list', { name: 'Reports' });
    expect(within(list).getByRole('link', { name: /Clients missing address/ })).toHaveAttribute('href', '/reports/clients-missing-address');
    expect(within(list).getByRole('link', { name: /Practitioner performance/ })).toHaveAttribute('href', '/reports/practitioner-performance');
    expect(within(list).getByRole('link', { name: /Client geography/ })).toHaveAttribute('href', '/reports/client-geography');
    expect(within(list).getByRole('link', { name: /Visit verification/ })).toHaveAttribute('href', '/reports/visit-verification');
  });
});

describe('clients missing address', () => {
  it('asks for every client by default and shows the summary, the chart and each client with what is wrong', async () => {
    renderPage(ClientsMissingAddressReport, { path: '/reports/clients-missing-address', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Clients missing address' });
    expect(reportRequests()[0].toString()).toBe('');
    // Printed, the page says what it covers (the filter bar is not printed).
    expect(screen.getByTestId('report-scope')).toHaveTextContent(/^Every client; printed \d{2} \w{3} \d{4} \d{2}:\d{2}\.$/);
    expect(within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent)).toEqual(['2', '2', '1', '0']);
    expect(screen.getByTestId('report-chart')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Margaret Jones', '5 Ann Street', '', '4000', 'Address incomplete', '04 Mar 2030 08:00', 'Pat Nguyen',
    ]);
    expect(within(rows[1]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Arthur "Art" Bell', '', '', '', 'Address incompleteNot on the map', 'None', '',
    ]);
  });

  it('keeps only clients with a visit in the chosen days on request, and keeps the choice in the address for a reload', async () => {
    const user = userEvent.setup();
    const app = renderApp('/reports/clients-missing-address', { as: 'ADMIN' });
    await screen.findByRole('table', { name: 'Clients missing address' });
    await user.click(screen.getByRole('checkbox', { name: 'Only clients with a visit in these days' }));
    await waitFor(() => expect(window.location.search).toContain('visits=true'));
    const nextTwoWeeks = reportRequests().at(-1)!;
    expect([nextTwoWeeks.get('start_date'), nextTwoWeeks.get('end_date')]).toEqual([today().toString(), today().add({ days: 13 }).toString()]);
    expect(screen.getByRole('button', { name: 'Next two weeks' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('report-scope')).toHaveTextContent(/^Clients with a visit from \d{2} \w{3} \d{4} – \d{2} \w{3} \d{4}; printed/);
    // A preset chooses its days and keeps to clients with visits in them.
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    const firstOfNext = today().with({ day: 1 }).add({ months: 1 });
    await waitFor(() => expect(reportRequests().at(-1)!.get('start_date')).toBe(firstOfNext.toString()));
    app.reload();
    await screen.findByRole('table', { name: 'Clients missing address' });
    expect(screen.getByRole('checkbox', { name: 'Only clients with a visit in these days' })).toBeChecked();
    expect(reportRequests().at(-1)!.get('end_date')).toBe(firstOfNext.with({ day: firstOfNext.daysInMonth }).toString());
  });

  it('sorts by a column heading, and downloads exactly the table in that order as CSV', async () => {
    const user = userEvent.setup();
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(ClientsMissingAddressReport, { path: '/reports/clients-missing-address', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Clients missing address' });
    await user.click(within(table).getByRole('button', { name: /Client/ }));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Arthur "Art" Bell');
    expect(within(table).getAllByRole('columnheader')[0]).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    // A byte-order mark first, so a spreadsheet reads UTF-8.
    expect([...new Uint8Array(await saved!.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await saved!.text()).toBe(
      'Client,Address,Suburb,Postcode,Problem,Next visit,Practitioner\r\n' +
      '"Arthur ""Art"" Bell",,,,Address incomplete; Not on the map,None,\r\n' +
      'Margaret Jones,5 Ann Street,,4000,Address incomplete,04 Mar 2030 08:00,Pat Nguyen\r\n',
    );
  });

  it('opens the client from their row, to fix the address there', async () => {
    const user = userEvent.setup();
    renderApp('/reports/clients-missing-address', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Clients missing address' });
    await user.click(within(table).getByRole('button', { name: 'Margaret Jones' }));
    await waitFor(() => expect(window.location.search).toContain('client=11'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Margaret Jones');
  });

  it('says so when the report cannot be loaded', async () => {
    server.use(http.get(api('/reports/clients-missing-address'), () => HttpResponse.json({ message: 'The date range is limited to 366 days (asked for 400): choose at most 366 days.' }, { status: 422 })));
    renderPage(ClientsMissingAddressReport, { path: '/reports/clients-missing-address', role: 'ADMIN' });
    expect(await screen.findByText(/limited to 366 days/)).toBeInTheDocument();
  });
});
