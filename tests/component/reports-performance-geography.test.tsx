// Practitioner performance and Client geography: the summary, chart and table (with its totals row) for the filters
// in the address; the CSV exactly as the table (totals last); geography's radius and grouping sent and kept, and
// "every client" until a range is asked for.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { api, server } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import PractitionerPerformanceReport from '../../src/features/reports/PractitionerPerformanceReport';
import ClientGeographyReport from '../../src/features/reports/ClientGeographyReport';
import { captureDownloads, reportFilterHandlers, reportRequests } from './support/reports';

useFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');
const PERFORMANCE = {
  rows: [
    { practitioner_id: 7, practitioner_name: 'Pat Nguyen', visits: 3, cancellations: 1, visit_seconds: 9900, working_seconds: 28800, utilisation: 0.344, idle_seconds: 7344, punctual_visits: 2, punctuality: 0.667, from_check_ins: 2, from_planned_times: 1, clients: 2, repeat_visits: 2, continuity: 0.667 },
    { practitioner_id: 8, practitioner_name: 'Old Staff', visits: 2, cancellations: 0, visit_seconds: 3600, working_seconds: 0, utilisation: null, idle_seconds: 5400, punctual_visits: 0, punctuality: 0, from_check_ins: 0, from_planned_times: 2, clients: 1, repeat_visits: 1, continuity: 0.5 },
  ],
  summary: {
    practitioners: 2, visits: 5, cancellations: 1, visit_seconds: 13500, working_seconds: 28800, utilisation: 0.344, idle_seconds: 12744,
    punctual_visits: 2, punctuality: 0.4, from_check_ins: 2, from_planned_times: 3, clients: 3, repeat_visits: 3, continuity: 0.6, legs_counted: 'Idle time counts …',
  },
};
const GEOGRAPHY = {
  rows: [
    { client_id: 21, client_name: 'Amy Able', suburb: 'Annerley', postcode: '4103', lat: -27.49, lng: 153.0, geo_precision: 'address', nearest_start_place: 'Home', nearest_practitioner_name: 'Pat Nguyen', distance_km: 1.1, outside_radius: false },
    { client_id: 22, client_name: 'Cal Coast', suburb: 'Redcliffe', postcode: '4020', lat: -27.2, lng: 153.0, geo_precision: 'address', nearest_start_place: 'Home', nearest_practitioner_name: 'Pat Nguyen', distance_km: 33.4, outside_radius: true },
    { client_id: 23, client_name: 'Dale Dune', suburb: null, postcode: null, lat: null, lng: null, geo_precision: 'none', nearest_start_place: null, nearest_practitioner_name: null, distance_km: null, outside_radius: false },
  ],
  groups: [
    { key: 'Annerley', clients: 1, placed: 1, outside_radius: 0 },
    { key: '', clients: 1, placed: 0, outside_radius: 0 },
    { key: 'Redcliffe', clients: 1, placed: 1, outside_radius: 1 },
  ],
  meta: { page: 1, per_page: 50, total: 3 },
  points: [
    { client_id: 22, client_name: 'Cal Coast', lat: -27.2, lng: 153.0, outside_radius: true },
    { client_id: 21, client_name: 'Amy Able', lat: -27.49, lng: 153.0, outside_radius: false },
  ],
  summary: { clients: 3, placed: 2, outside_radius: 1, median_distance_km: 17.25, radius_km: 25, start_places: 1 },
};

const requests = reportRequests;
const figures = () => within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent);
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

let saved: Blob[] = [];
beforeEach(() => {
  saved = captureDownloads();
  server.use(
    ...reportFilterHandlers(),
    http.get(api('/reports/practitioner-performance'), () => HttpResponse.json(PERFORMANCE)),
    http.get(api('/reports/client-geography'), () => HttpResponse.json(GEOGRAPHY)),
  );
});
afterEach(() => vi.restoreAllMocks());

describe('practitioner performance', () => {
  it('asks for this week and shows the summary, the chart, each practitioner and the totals row', async () => {
    renderPage(PractitionerPerformanceReport, { path: '/reports/practitioner-performance', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Practitioner performance' });
    const monday = today().subtract({ days: today().dayOfWeek - 1 });
    const first = requests('practitioner-performance')[0];
    expect([first.get('start_date'), first.get('end_date')]).toEqual([monday.toString(), monday.add({ days: 6 }).toString()]);
    expect(figures()).toEqual(['5', '1', '34.4%', '3.5', '40.0%', '2 of 5', '3', '60.0%']);
    expect(screen.getByTestId('report-chart')).toBeInTheDocument();
    expect(screen.getByText(/had visited before \(every visit but their first to that client\)/)).toBeInTheDocument();
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Pat Nguyen', '3', '1', '2.8', '8.0', '34.4%', '2.0', '66.7%', '2', '2', '66.7%'],
      ['Old Staff', '2', '0', '1.0', '0.0', '', '1.5', '0.0%', '0', '1', '50.0%'],
      ['Total (2)', '5', '1', '3.8', '8.0', '34.4%', '3.5', '40.0%', '2', '3', '60.0%'],
    ]);
  });

  it('downloads the table as sorted, with the totals last', async () => {
    const user = userEvent.setup();
    renderPage(PractitionerPerformanceReport, { path: '/reports/practitioner-performance', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Practitioner performance' });
    await user.click(within(table).getByRole('button', { name: /Visits/ }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await saved[0].text()).toBe(
      'Practitioner,Visits,Cancelled,Visit hours,Working hours,Utilisation,Idle hours,Punctuality,Judged by check-in,Clients,Continuity\r\n' +
      'Old Staff,2,0,1.0,0.0,,1.5,0.0%,0,1,50.0%\r\n' +
      'Pat Nguyen,3,1,2.8,8.0,34.4%,2.0,66.7%,2,2,66.7%\r\n' +
      'Total (2),5,1,3.8,8.0,34.4%,3.5,40.0%,2,3,60.0%\r\n',
    );
  });
});

describe('client geography', () => {
  it('shows every client by default with the radius and grouping sent, and keeps changed ones in the address', async () => {
    const user = userEvent.setup();
    const app = renderApp('/reports/client-geography', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Client geography' });
    const first = requests('client-geography')[0];
    expect([first.get('start_date'), first.get('radius_km'), first.get('group_by')]).toEqual([null, '25', 'suburb']);
    expect([first.get('sort'), first.get('direction'), first.get('page'), first.get('per_page')]).toEqual(['client', 'asc', '1', '50']);
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–3 of 3');
    expect(figures()).toEqual(['3', '2', '1', '17.3 km']);
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Amy Able', 'Annerley', '4103', 'Yes', 'Home', 'Pat Nguyen', '1.1', 'No'],
      ['Cal Coast', 'Redcliffe', '4020', 'Yes', 'Home', 'Pat Nguyen', '33.4', 'Yes'],
      ['Dale Dune', '', '', 'No', '', '', '', 'No'],
    ]);
    const groups = screen.getByRole('table', { name: 'Clients per suburb' });
    expect(within(groups).getAllByRole('row').slice(1).map(cells)).toEqual([['Annerley', '1', '1', '0'], ['(none)', '1', '0', '0'], ['Redcliffe', '1', '1', '1']]);

    const radius = screen.getByRole('spinbutton', { name: /Service radius/ });
    await user.clear(radius);
    await user.type(radius, '40');
    await waitFor(() => expect(requests('client-geography').at(-1)!.get('radius_km')).toBe('40'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Count by' }), 'postcode');
    await waitFor(() => expect(requests('client-geography').at(-1)!.get('group_by')).toBe('postcode'));
    await user.click(screen.getByRole('checkbox', { name: 'Only clients with a visit in these days' }));
    await waitFor(() => expect(requests('client-geography').at(-1)!.get('start_date')).not.toBeNull());
    // The server sorts: a heading asks for its order.
    await user.click(within(table).getByRole('button', { name: /Km/ }));
    await waitFor(() => expect(requests('client-geography').at(-1)!.get('sort')).toBe('distance'));
    expect(window.location.search).toContain('sort=distance');
    app.reload();
    await screen.findByRole('table', { name: 'Client geography' });
    const last = requests('client-geography').at(-1)!;
    expect([last.get('radius_km'), last.get('group_by'), last.get('start_date') !== null]).toEqual(['40', 'postcode', true]);
    expect(screen.getByRole('spinbutton', { name: /Service radius/ })).toHaveValue(40);
  });

  it('downloads the clients and the counts as CSV', async () => {
    const user = userEvent.setup();
    renderPage(ClientGeographyReport, { path: '/reports/client-geography', role: 'ADMIN' });
    await screen.findByRole('table', { name: 'Client geography' });
    const [groupsCsv, clientsCsv] = screen.getAllByRole('button', { name: 'Download CSV' });
    await user.click(clientsCsv);
    await waitFor(() => expect(saved).toHaveLength(1));
    // Every client of the filters: asked for without a page.
    expect(requests('client-geography').at(-1)!.get('per_page')).toBeNull();
    expect(await saved[0].text()).toBe(
      'Client,Suburb,Postcode,On the map,Nearest start,Practitioner,Km,Beyond radius\r\n' +
      'Amy Able,Annerley,4103,Yes,Home,Pat Nguyen,1.1,No\r\n' +
      'Cal Coast,Redcliffe,4020,Yes,Home,Pat Nguyen,33.4,Yes\r\n' +
      'Dale Dune,,,No,,,,No\r\n',
    );
    await user.click(groupsCsv);
    expect(await saved[1].text()).toBe('Suburb,Clients,On the map,Beyond radius\r\nAnnerley,1,1,0\r\n(none),1,0,0\r\nRedcliffe,1,1,1\r\n');
  });
});
