// The Activity and Appointments reports: each shows its summary, chart and table for the filters in the address
// (which survive a reload), downloads exactly the table as CSV (the appointments' totals row last), and asks the
// server for the report's own filters (kind, author; group by).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { api, received as sent, server } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import ActivityReport from '../../src/features/reports/ActivityReport';
import AppointmentsReport from '../../src/features/reports/AppointmentsReport';

useFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');
const requestsTo = (path: string) => sent.filter((request) => request.path === path).map((request) => new URLSearchParams(request.search ?? ''));

const ACTIVITY = {
  rows: [
    {
      id: 'version-9', at: '2030-03-04T00:30:00Z', who: 'Ada Admin', kind: 'arrival_time', event: 'update', what: 'Ivy Moss, 04 Mar 2030', reason: null,
      changes: [{ field: 'arrive_at', label: 'Arrival time', kind: 'instant', from: '2030-03-03T23:00:00Z', to: '2030-03-03T23:30:00Z' }],
    },
    {
      id: 'job-3', at: '2030-03-03T22:00:00Z', who: 'Automatic sync', kind: 'import', event: 'run', what: 'Import 04 Mar 2030 – 10 Mar 2030',
      reason: 'The PMS did not answer.', changes: [{ field: 'status', label: 'Status', kind: 'text', from: null, to: 'Failed' }],
    },
    {
      id: 'version-2', at: '2030-03-01T01:00:00Z', who: 'Ada Admin', kind: 'settings', event: 'update', what: 'Sync settings', reason: null,
      changes: [{ field: 'ahead_days', label: 'Days ahead', kind: 'text', from: '7', to: '14' }, { field: 'practitioner_ids', label: 'Practitioners', kind: 'text', from: 'All', to: 'Pat Nguyen' }],
    },
  ],
  meta: { page: 1, per_page: 50, total: 1200 },
  summary: { total: 1200, by_kind: [{ kind: 'import', count: 1 }, { kind: 'arrival_time', count: 1198 }, { kind: 'settings', count: 1 }] },
  authors: ['Ada Admin', 'Automatic sync'],
};

const figures = (visits: number, hours: number, cancelled: number, outside: number, clients: number) => ({ visits, hours, cancelled, outside_availability: outside, clients });
const APPOINTMENTS = {
  rows: [
    { key: '7', label: 'Pat Nguyen', ...figures(4, 3.75, 0, 1, 2) },
    { key: '8', label: 'Quinn Lee', ...figures(1, 0.5, 1, 1, 1) },
  ],
  summary: figures(5, 4.25, 1, 2, 2),
  days: [{ day: '2030-03-04', visits: 3, cancelled: 0 }, { day: '2030-03-05', visits: 2, cancelled: 1 }],
};

const BY_DAY = { ...APPOINTMENTS, rows: [{ key: '2030-03-04', label: '2030-03-04', ...figures(3, 3, 0, 1, 2) }, { key: '2030-03-05', label: '2030-03-05', ...figures(2, 1.25, 1, 1, 1) }] };

beforeEach(() => {
  server.use(
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [{ id: 7, full_name: 'Pat Nguyen', active: true }] })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [] })),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
    http.get(api('/reports/activity'), () => HttpResponse.json(ACTIVITY)),
    http.get(api('/reports/appointments'), ({ request }) => HttpResponse.json(new URL(request.url).searchParams.get('group_by') === 'day' ? BY_DAY : APPOINTMENTS)),
  );
});
afterEach(() => vi.restoreAllMocks());

/** Catches what "Download CSV" saves. */
function catchDownload(): () => Promise<string> {
  let saved: Blob | null = null;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved = blob as Blob;
    return 'blob:report';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return async () => (await saved!.text()).replace(/^\uFEFF/, '');
}

describe('activity report', () => {
  it('asks for the last seven days, a page of 50 newest first, and shows counts per kind, the pages and each row in words', async () => {
    renderPage(ActivityReport, { path: '/reports/activity', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Activity report' });
    const first = requestsTo('/api/reports/activity')[0];
    expect([first.get('start_date'), first.get('end_date')]).toEqual([today().subtract({ days: 6 }).toString(), today().toString()]);
    expect([first.get('sort'), first.get('direction'), first.get('page'), first.get('per_page')]).toEqual(['at', 'desc', '1', '50']);
    expect(within(screen.getByTestId('report-summary')).getAllByRole('term').map((term) => term.textContent)).toEqual(['All activity', 'Import', 'Arrival time', 'Settings']);
    expect(within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent)).toEqual(['1200', '1', '1198', '1']);
    expect(screen.getByTestId('report-chart')).toBeInTheDocument();
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–50 of 1200');
    // Only when and who sort (on the server).
    expect(within(table).getAllByRole('columnheader').map((header) => header.getAttribute('aria-sort'))).toEqual(['descending', 'none', null, null, null]);
    const rows = within(table).getAllByRole('row').slice(1);
    // Times in the business's zone (Brisbane, UTC+10).
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '04 Mar 2030 10:30', 'Ada Admin', 'Arrival time', 'Ivy Moss, 04 Mar 2030', 'Arrival time: 04 Mar 2030 09:00 → 04 Mar 2030 09:30',
    ]);
    expect(within(rows[1]).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Status: Failed', 'The PMS did not answer.']);
  });

  it('filters by kind and author through the address, which a reload keeps, and downloads exactly the table', async () => {
    const user = userEvent.setup();
    const download = catchDownload();
    const app = renderApp('/reports/activity', { as: 'ADMIN' });
    await screen.findByRole('table', { name: 'Activity report' });
    await user.selectOptions(screen.getByLabelText('Kind'), 'Settings');
    await user.selectOptions(screen.getByLabelText('Who'), 'Ada Admin');
    await waitFor(() => expect(requestsTo('/api/reports/activity').at(-1)!.get('author')).toBe('Ada Admin'));
    expect(requestsTo('/api/reports/activity').at(-1)!.getAll('kinds')).toEqual(['settings']);
    expect(window.location.search).toContain('kind=settings');
    app.reload();
    await screen.findByRole('table', { name: 'Activity report' });
    expect(screen.getByLabelText('Kind')).toHaveValue('settings');
    expect(screen.getByLabelText('Who')).toHaveValue('Ada Admin');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    const csv = await download();
    // Every row of the filtered table: asked for without a page.
    const asked = requestsTo('/api/reports/activity').at(-1)!;
    expect([asked.get('per_page'), asked.get('author'), asked.getAll('kinds')]).toEqual([null, 'Ada Admin', ['settings']]);
    expect(csv).toBe(
      'When,Who,Kind,What,Changes\r\n' +
      '04 Mar 2030 10:30,Ada Admin,Arrival time,"Ivy Moss, 04 Mar 2030",Arrival time: 04 Mar 2030 09:00 → 04 Mar 2030 09:30\r\n' +
      '04 Mar 2030 08:00,Automatic sync,Import,Import 04 Mar 2030 – 10 Mar 2030,Status: Failed; The PMS did not answer.\r\n' +
      '01 Mar 2030 11:00,Ada Admin,Settings,Sync settings,Days ahead: 7 → 14; Practitioners: All → Pat Nguyen\r\n',
    );
  });
});

describe('appointments report', () => {
  it('asks for this month by practitioner and shows the totals, the chart over days and a totals row', async () => {
    renderPage(AppointmentsReport, { path: '/reports/appointments', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Appointments report' });
    const first = requestsTo('/api/reports/appointments')[0];
    expect([first.get('start_date'), first.get('end_date'), first.get('group_by')])
      .toEqual([today().with({ day: 1 }).toString(), today().with({ day: today().daysInMonth }).toString(), 'practitioner']);
    expect(within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent)).toEqual(['5', '4.25', '1', '2']);
    expect(screen.getByTestId('report-chart')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').map((row) => within(row).queryAllByRole('cell').map((cell) => cell.textContent));
    expect(rows.slice(1)).toEqual([
      ['Pat Nguyen', '4', '3.75', '0', '1', '2'],
      ['Quinn Lee', '1', '0.50', '1', '1', '1'],
      ['Total', '5', '4.25', '1', '2', '2'],
    ]);
  });

  it('groups by the choice kept in the address, sorts, and downloads the table with its totals row last', async () => {
    const user = userEvent.setup();
    const download = catchDownload();
    const app = renderApp('/reports/appointments', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Appointments report' });
    await user.click(within(table).getByRole('button', { name: /Cancelled/ }));
    await user.click(within(table).getByRole('button', { name: /Cancelled/ }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await download()).toBe(
      'Practitioner,Visits,Hours,Cancelled,Outside availability,Clients\r\n' +
      'Quinn Lee,1,0.50,1,1,1\r\n' +
      'Pat Nguyen,4,3.75,0,1,2\r\n' +
      'Total,5,4.25,1,2,2\r\n',
    );
    await user.selectOptions(screen.getByLabelText('Group by'), 'Day');
    await waitFor(() => expect(requestsTo('/api/reports/appointments').at(-1)!.get('group_by')).toBe('day'));
    // The days read as dates (still sorted by Cancelled, most first).
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Appointments report' })).getAllByRole('row')[1]).toHaveTextContent(/^05 Mar 203021\.25111$/));
    app.reload();
    const byDay = await screen.findByRole('table', { name: 'Appointments report' });
    expect(screen.getByLabelText('Group by')).toHaveValue('day');
    expect(within(byDay).getAllByRole('columnheader')[0]).toHaveTextContent('Day');
    expect(requestsTo('/api/reports/appointments').at(-1)!.get('group_by')).toBe('day');
  });
});
