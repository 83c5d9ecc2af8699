// Practitioner travel and Client travel: the summary, chart and table for the filters in the address; a
// practitioner's days and a day's legs opened from the table (asked for then, and kept in the address); the legs CSV
// and the visits CSV for invoicing, asked for when downloaded and saved exactly as given; client travel's cap, regional cap and rate sent to the server and kept.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { api, server } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import PractitionerTravelReport from '../../src/features/reports/PractitionerTravelReport';
import ClientTravelReport from '../../src/features/reports/ClientTravelReport';
import { captureDownloads, reportFilterHandlers, reportRequests } from './support/reports';

useFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');
const LEGS_COUNTED = 'Start place → first visit, visit → next visit, last visit → end place.';
const PRACTITIONER_TRAVEL = {
  rows: [
    { practitioner_id: 7, practitioner_name: 'Pat Nguyen', days: 2, visits: 5, visit_seconds: 18000, travel_seconds: 5400, travel_metres: 42500, working_seconds: 27000, travel_share: 0.2, unlocated_visits: 1 },
    { practitioner_id: 8, practitioner_name: 'Old Staff', days: 1, visits: 2, visit_seconds: 3600, travel_seconds: 900, travel_metres: 6000, working_seconds: 6300, travel_share: 0.143, unlocated_visits: 0 },
  ],
  summary: {
    practitioners: 2, visits: 7, visit_seconds: 21600, travel_seconds: 6300, travel_metres: 48500, working_seconds: 33300, travel_share: 0.189,
    route_legs: 4, estimate_legs: 3, unlocated_visits: 1, legs_counted: LEGS_COUNTED,
  },
};
const PRACTITIONER_TRAVEL_LEGS = {
  days: [
    { practitioner_id: 7, day: '2030-03-04', visits: 3, visit_seconds: 10800, travel_seconds: 3600, travel_metres: 30000, working_seconds: 16200, route_legs: 4, estimate_legs: 0, unlocated_visits: 0 },
    { practitioner_id: 7, day: '2030-03-05', visits: 2, visit_seconds: 7200, travel_seconds: 1800, travel_metres: 12500, working_seconds: 10800, route_legs: 0, estimate_legs: 2, unlocated_visits: 1 },
    { practitioner_id: 8, day: '2030-03-04', visits: 2, visit_seconds: 3600, travel_seconds: 900, travel_metres: 6000, working_seconds: 6300, route_legs: 0, estimate_legs: 1, unlocated_visits: 0 },
  ],
  legs: [
    { practitioner_id: 7, practitioner_name: 'Pat Nguyen', day: '2030-03-05', kind: 'start', from_appointment_id: null, to_appointment_id: 31, from_name: 'Home', to_name: 'Amy Able', travel_seconds: 600, travel_metres: 4500, source: 'estimate' },
    { practitioner_id: 7, practitioner_name: 'Pat Nguyen', day: '2030-03-05', kind: 'end', from_appointment_id: 31, to_appointment_id: null, from_name: 'Amy Able', to_name: 'Home', travel_seconds: 1200, travel_metres: 8000, source: 'estimate' },
    { practitioner_id: 8, practitioner_name: 'Old Staff', day: '2030-03-04', kind: 'between', from_appointment_id: 40, to_appointment_id: 41, from_name: 'Ben "B" Best', to_name: 'Cal Coast', travel_seconds: 900, travel_metres: 6000, source: 'route' },
  ],
};
/** The drill-down of one practitioner: their days and legs. */
const legsOf = (id: number) => ({
  days: PRACTITIONER_TRAVEL_LEGS.days.filter((day) => day.practitioner_id === id),
  legs: PRACTITIONER_TRAVEL_LEGS.legs.filter((leg) => leg.practitioner_id === id),
});
const CLIENT_TRAVEL = {
  rows: [
    { client_id: 21, client_name: 'Amy Able', client_suburb: 'New Farm', regional: false, cap_minutes: 30, visits: 2, visits_without_travel: 0, travel_seconds: 2700, travel_metres: 21000, claimable_seconds: 2400, amount: 20.79 },
    { client_id: 22, client_name: 'Cal Coast', client_suburb: null, regional: true, cap_minutes: 60, visits: 1, visits_without_travel: 0, travel_seconds: 900, travel_metres: 6000, claimable_seconds: 900, amount: 5.94 },
  ],
  meta: { page: 1, per_page: 50, total: 2 },
  largest: [] as unknown[],
  summary: {
    clients: 2, visits: 3, travel_seconds: 3600, travel_metres: 27000, claimable_seconds: 3300, amount: 26.73,
    cap_minutes: 30, regional_cap_minutes: 60, rate_per_km: 0.99, legs_counted: LEGS_COUNTED,
  },
};
CLIENT_TRAVEL.largest = CLIENT_TRAVEL.rows;

const CLIENT_TRAVEL_VISITS = {
  visits: [
    { appointment_id: 31, client_id: 21, client_name: 'Amy Able', client_suburb: 'New Farm', regional: false, day: '2030-03-04', starts_at: '2030-03-03T23:00:00Z', practitioner_id: 7, practitioner_name: 'Pat Nguyen', from_name: 'Home', travel_seconds: 2100, travel_metres: 15000, source: 'route', claimable_seconds: 1800, amount: 14.85 },
    { appointment_id: 32, client_id: 21, client_name: 'Amy Able', client_suburb: 'New Farm', regional: false, day: '2030-03-05', starts_at: '2030-03-05T00:30:00Z', practitioner_id: 7, practitioner_name: 'Pat Nguyen', from_name: 'Ben Best', travel_seconds: 600, travel_metres: 6000, source: 'estimate', claimable_seconds: 600, amount: 5.94 },
    { appointment_id: 41, client_id: 22, client_name: 'Cal Coast', client_suburb: null, regional: true, day: '2030-03-04', starts_at: '2030-03-04T01:00:00Z', practitioner_id: 8, practitioner_name: 'Old Staff', from_name: 'Ben Best', travel_seconds: 900, travel_metres: 6000, source: 'route', claimable_seconds: 900, amount: 5.94 },
  ],
};

const requests = reportRequests;
const figures = () => within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent);
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

let saved: Blob[] = [];
beforeEach(() => {
  saved = captureDownloads();
  server.use(
    ...reportFilterHandlers(),
    http.get(api('/reports/practitioner-travel'), () => HttpResponse.json(PRACTITIONER_TRAVEL)),
    http.get(api('/reports/practitioner-travel/legs'), ({ request }) => {
      const practitionerId = new URL(request.url).searchParams.get('practitioner_id');
      return HttpResponse.json(practitionerId ? legsOf(Number(practitionerId)) : PRACTITIONER_TRAVEL_LEGS);
    }),
    http.get(api('/reports/client-travel'), () => HttpResponse.json(CLIENT_TRAVEL)),
    http.get(api('/reports/client-travel/visits'), () => HttpResponse.json(CLIENT_TRAVEL_VISITS)),
  );
});
afterEach(() => vi.restoreAllMocks());

describe('practitioner travel', () => {
  it('asks for this week and shows the summary, the chart, which legs count and each practitioner', async () => {
    renderPage(PractitionerTravelReport, { path: '/reports/practitioner-travel', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Practitioner travel' });
    const monday = today().subtract({ days: today().dayOfWeek - 1 });
    expect([requests('practitioner-travel')[0].get('start_date'), requests('practitioner-travel')[0].get('end_date')]).toEqual([monday.toString(), monday.add({ days: 6 }).toString()]);
    expect(figures()).toEqual(['7', '6.0', '48.5', '1.8', '18.9%', '4', '3', '1']);
    expect(screen.getByTestId('report-chart')).toBeInTheDocument();
    expect(screen.getByText(`Legs counted: ${LEGS_COUNTED}`)).toBeInTheDocument();
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Pat Nguyen', '2', '5', '5.0', '42.5', '1.5', '20.0%', '1'],
      ['Old Staff', '1', '2', '1.0', '6.0', '0.3', '14.3%', '0'],
    ]);
    // Days and legs are asked for only when a practitioner is opened.
    expect(requests('practitioner-travel/legs')).toEqual([]);
  });

  it('opens a practitioner’s days and a day’s legs, kept in the address for a reload', async () => {
    const user = userEvent.setup();
    const app = renderApp('/reports/practitioner-travel', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Practitioner travel' });
    await user.click(within(table).getByRole('button', { name: 'Pat Nguyen' }));
    const days = await screen.findByRole('table', { name: 'Days of Pat Nguyen' });
    await waitFor(() => expect(within(days).getAllByRole('row')).toHaveLength(3));
    const drillDown = requests('practitioner-travel/legs');
    expect(drillDown.map((request) => [request.get('practitioner_id'), request.get('start_date') !== null])).toEqual([['7', true]]);
    expect(within(days).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['04 Mar 2030', '3', '3.0', '30.0', '60', '4.5', 'Route'],
      ['05 Mar 2030', '2', '2.0', '12.5', '30', '3.0', 'Estimate'],
    ]);
    await user.click(within(days).getByRole('button', { name: '05 Mar 2030' }));
    const legs = await screen.findByRole('list', { name: 'Legs on 05 Mar 2030' });
    expect(within(legs).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Home → Amy Able4.5 km10 minEstimate', 'Amy Able → Home8.0 km20 minEstimate',
    ]);
    await waitFor(() => expect(window.location.search).toContain('open=7'));
    expect(window.location.search).toContain('day=2030-03-05');
    app.reload();
    expect(await screen.findByRole('list', { name: 'Legs on 05 Mar 2030' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Days of Pat Nguyen' })).not.toBeInTheDocument());
    expect(window.location.search).not.toContain('open=');
  });

  it('downloads every leg as CSV, and the table as shown', async () => {
    const user = userEvent.setup();
    renderPage(PractitionerTravelReport, { path: '/reports/practitioner-travel', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Practitioner travel' });
    await user.click(screen.getByRole('button', { name: 'Download legs CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(requests('practitioner-travel/legs').map((request) => request.get('practitioner_id'))).toEqual([null]);
    expect(await saved[0].text()).toBe(
      'Practitioner,Day,From,To,Km,Minutes,Source\r\n' +
      'Pat Nguyen,2030-03-05,Home,Amy Able,4.5,10,Estimate\r\n' +
      'Pat Nguyen,2030-03-05,Amy Able,Home,8.0,20,Estimate\r\n' +
      'Old Staff,2030-03-04,"Ben ""B"" Best",Cal Coast,6.0,15,Route\r\n',
    );
    await user.click(within(table).getByRole('button', { name: /Travel hours/ }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await saved[1].text()).toBe(
      'Practitioner,Days,Visits,Visit hours,Travel km,Travel hours,Travel share,Not on map\r\n' +
      'Old Staff,1,2,1.0,6.0,0.3,14.3%,0\r\n' +
      'Pat Nguyen,2,5,5.0,42.5,1.5,20.0%,1\r\n',
    );
  });
});

describe('client travel', () => {
  it('sends the default caps and rate, shows each client’s claim, and keeps a changed cap in the address', async () => {
    const user = userEvent.setup();
    const app = renderApp('/reports/client-travel', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Client travel' });
    const first = requests('client-travel')[0];
    expect([first.get('cap_minutes'), first.get('regional_cap_minutes'), first.get('rate_per_km')]).toEqual(['30', '60', '0.99']);
    expect(figures()).toEqual(['2', '3', '27.0', '1.0', '0.9', '$26.73']);
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['Amy Able', 'New Farm', '21', 'No', '2', '0', '45', '21.0', '30', '40', '20.79'],
      ['Cal Coast', '', '22', 'Yes', '1', '0', '15', '6.0', '60', '15', '5.94'],
    ]);
    const cap = screen.getByRole('spinbutton', { name: /^Cap/ });
    await user.clear(cap);
    await user.type(cap, '700');
    // Out of range: said, and never asked for.
    expect(screen.getByText('From 0 to 600, whole.')).toBeInTheDocument();
    expect(requests('client-travel').some((request) => request.get('cap_minutes') === '700')).toBe(false);
    await user.clear(cap);
    await user.type(cap, '45');
    await waitFor(() => expect(requests('client-travel').at(-1)!.get('cap_minutes')).toBe('45'));
    const rate = screen.getByRole('spinbutton', { name: /^Rate/ });
    await user.clear(rate);
    await user.type(rate, '1.2');
    await waitFor(() => expect(requests('client-travel').at(-1)!.get('rate_per_km')).toBe('1.2'));
    expect(window.location.search).toContain('cap=45');
    app.reload();
    await screen.findByRole('table', { name: 'Client travel' });
    expect(screen.getByRole('spinbutton', { name: /^Cap/ })).toHaveValue(45);
    expect(requests('client-travel').at(-1)!.get('rate_per_km')).toBe('1.2');
  });

  it('asks the server for each page and order, keeps them in the address, and downloads every row of the table', async () => {
    const user = userEvent.setup();
    // Twelve clients; the fake server pages them as asked (its order is the server's business).
    const many = Array.from({ length: 12 }, (_, index) => ({ ...CLIENT_TRAVEL.rows[0], client_id: 100 + index, client_name: `Client ${String(index + 1).padStart(2, '0')}` }));
    server.use(http.get(api('/reports/client-travel'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      const perPage = query.get('per_page') === null ? null : Number(query.get('per_page'));
      const page = Number(query.get('page') ?? 1);
      return HttpResponse.json({
        ...CLIENT_TRAVEL, rows: perPage === null ? many : many.slice((page - 1) * perPage, page * perPage),
        meta: { page: perPage === null ? 1 : page, per_page: perPage ?? 12, total: 12 },
      });
    }));
    const app = renderApp('/reports/client-travel?per_page=10', { as: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Client travel' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(requests('client-travel').at(-1)!.get('per_page')).toBe('10');
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–10 of 12');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(requests('client-travel').at(-1)!.get('page')).toBe('2');
    expect(window.location.search).toMatch(/[?&]page=2/);
    // A new order is the server's: asked for from page 1, the other way on a second click.
    await user.click(within(table).getByRole('button', { name: /Km \$/ }));
    await waitFor(() => expect(requests('client-travel').at(-1)!.get('sort')).toBe('amount'));
    expect(requests('client-travel').at(-1)!.get('page')).toBe('1');
    await user.click(within(table).getByRole('button', { name: /Km \$/ }));
    await waitFor(() => expect(requests('client-travel').at(-1)!.get('direction')).toBe('desc'));
    expect(within(table).getByRole('columnheader', { name: /Km \$/ })).toHaveAttribute('aria-sort', 'descending');
    // A new filter starts again at page 1.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(window.location.search).toMatch(/[?&]page=2/));
    const rate = screen.getByRole('spinbutton', { name: /^Rate/ });
    await user.clear(rate);
    await user.type(rate, '2');
    await waitFor(() => expect(requests('client-travel').at(-1)!.get('rate_per_km')).toBe('2'));
    expect(window.location.search).not.toMatch(/[?&]page=/);
    // The CSV: every client, asked for in the table's order without a page.
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const asked = requests('client-travel').at(-1)!;
    expect([asked.get('per_page'), asked.get('page'), asked.get('sort'), asked.get('direction')]).toEqual([null, null, 'amount', 'desc']);
    const lines = (await saved[0].text()).trim().split('\r\n');
    expect(lines).toHaveLength(13);
    expect(lines[12]).toBe('Client 12,New Farm,111,No,2,0,45,21.0,30,40,20.79');
    app.reload();
    await screen.findByRole('table', { name: 'Client travel' });
    expect(within(screen.getByRole('table', { name: 'Client travel' })).getByRole('columnheader', { name: /Km \$/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('downloads one line per visit for invoicing', async () => {
    const user = userEvent.setup();
    renderPage(ClientTravelReport, { path: '/reports/client-travel', role: 'ADMIN' });
    await screen.findByRole('table', { name: 'Client travel' });
    await user.click(screen.getByRole('button', { name: 'Download visits CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(requests('client-travel/visits').map((request) => request.get('cap_minutes'))).toEqual(['30']);
    expect(await saved[0].text()).toBe(
      'Client,Suburb,Client id,Regional,Day,Start,Appointment id,Practitioner,From,Travel min,Travel km,Claimable min,Km $,Source\r\n' +
      'Amy Able,New Farm,21,No,2030-03-04,09:00,31,Pat Nguyen,Home,35,15.0,30,14.85,Route\r\n' +
      'Amy Able,New Farm,21,No,2030-03-05,10:30,32,Pat Nguyen,Ben Best,10,6.0,10,5.94,Estimate\r\n' +
      'Cal Coast,,22,Yes,2030-03-04,11:00,41,Old Staff,Ben Best,15,6.0,15,5.94,Route\r\n',
    );
  });
});
