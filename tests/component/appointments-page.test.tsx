import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { appointmentListBody, makeAppointment } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';
import type { Appointment } from '../../src/entities/appointments/api';

useFakeApi();
afterEach(() => {
  vi.useRealTimers();
});

const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' };
const SAM = { id: 8, full_name: 'Sam Lee', active: true, time_zone: 'Australia/Brisbane' };
const PRACTITIONERS = [PAT, SAM, { id: 9, full_name: 'Jo Park', active: true }, { id: 10, full_name: 'Ana Cruz', active: true }, { id: 11, full_name: 'Old Staff', active: false }];

// Tuesday 24 Nov 2026, Brisbane (UTC+10).
const APPOINTMENTS = [
  makeAppointment({ id: 1, starts_at: '2026-11-23T23:00:00Z', ends_at: '2026-11-24T00:00:00Z', arrive_at: '2026-11-23T23:00:00Z', practitioner: PAT }),
  makeAppointment({
    id: 2,
    starts_at: '2026-11-24T00:30:00Z',
    ends_at: '2026-11-24T01:00:00Z',
    arrive_at: '2026-11-24T00:30:00Z',
    practitioner: PAT,
    suburb: 'Toowong',
    lat: -27.485,
    lng: 152.993,
    client: { id: 12, full_name: 'Bert Smith', time_zone: null, availability: [{ dow: 3 }] },
  }),
  makeAppointment({ id: 3, starts_at: '2026-11-24T02:00:00Z', ends_at: '2026-11-24T03:00:00Z', arrive_at: null, practitioner: SAM, client: { id: 13, full_name: 'Cora Diaz', time_zone: null, availability: [] } }),
];

function serve(appointments: Appointment[] = APPOINTMENTS, routes: unknown[] = [], days: unknown[] = []) {
  server.use(
    http.get(api('/routes'), () => HttpResponse.json({ routes })),
    // Before /appointments/:id, which would take "travel" for an id.
    http.get(api('/appointments/travel'), () => HttpResponse.json({ date: '2026-11-24', travel: 'haversine', appointments: [], practitioners: days })),
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: PRACTITIONERS })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [{ id: 3, name: 'Home visit', duration: 60, color: null }] })),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [{ id: 1, name: 'Brisbane North' }] })),
    http.get(api('/appointments'), ({ request }) => HttpResponse.json(appointmentListBody(appointments, new URL(request.url).searchParams))),
    http.get(api('/appointments/:id'), ({ params }) => HttpResponse.json({ appointment: APPOINTMENTS.find((item) => String(item.id) === params.id) })),
    http.get(api('/appointments/:id/extra_details'), () => HttpResponse.json({ resource_map: null, versions: [], import_history: [], export_history: [] })),
  );
}

const listRequests = () => sent.filter((request) => request.path === '/api/appointments').map((request) => new URLSearchParams(request.search));

describe('appointments page', () => {
  it("lists today's appointments with the warning on those outside availability", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    serve();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const rows = await screen.findAllByTestId('appointment-row');
    expect(rows).toHaveLength(3);
    expect(Object.fromEntries(listRequests()[0])).toEqual({ start_date: '2026-11-24', end_date: '2026-11-24', page: '1', per_page: '50' });
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      // 10:00 today: the 09:00 visit has no check-in an hour on, so it is overdue (issue 26's live desk).
      '09:00–10:00', 'Margaret Jones', 'Pat Nguyen', 'Home visit', 'Paddington', '09:00', 'Booked1 h late', '',
    ]);
    // Bert is available on Wednesdays only; his visit is on a Tuesday.
    expect(within(rows[1]).getByTestId('availability-warning')).toHaveTextContent("Outside client's availability");
    expect(within(rows[0]).queryByTestId('availability-warning')).toBeNull();
    expect(screen.getByTestId('date-range-button')).toHaveTextContent('24 Nov 2026');
    view.unmount();
  });

  it('filters by practitioner with a multi-select: All, tags up to three, a counter above', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findAllByTestId('appointment-row');
    const filter = screen.getByTestId('filter-practitioners');
    const button = within(filter).getByRole('button');
    expect(button).toHaveTextContent('All');

    await user.click(button);
    const listbox = await screen.findByRole('listbox');
    // Inactive practitioners are not offered.
    expect(within(listbox).queryByRole('option', { name: 'Old Staff' })).toBeNull();
    await user.click(within(listbox).getByRole('option', { name: 'Pat Nguyen' }));
    await waitFor(() => expect(listRequests().at(-1)!.getAll('practitioner_ids')).toEqual(['7']));
    for (const name of ['Sam Lee', 'Jo Park']) await user.click(within(screen.getByRole('listbox')).getByRole('option', { name }));
    await waitFor(() => expect(within(button).getAllByTestId('multiselect-tag')).toHaveLength(3));
    expect(button).toHaveTextContent('Pat NguyenSam LeeJo Park');
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Ana Cruz' }));
    await waitFor(() => expect(button).toHaveTextContent('4 selected'));
    await waitFor(() => expect(listRequests().at(-1)!.getAll('practitioner_ids')).toEqual(['7', '8', '9', '10']));
    view.unmount();
  });

  it('shows the day schedule: a lane per practitioner, blocks at their times and the gaps between', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    serve();
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findAllByTestId('appointment-row');
    await user.click(screen.getByRole('button', { name: 'Day schedule' }));
    const lanes = await screen.findAllByTestId('schedule-lane');
    // The schedule asks for the whole of its day, not a page.
    expect(Object.fromEntries(listRequests().at(-1)!)).toEqual({ start_date: '2026-11-24', end_date: '2026-11-24' });
    expect(screen.getByTestId('appointments-count')).toHaveTextContent('3 appointments on this day');
    expect(lanes.map((lane) => lane.getAttribute('aria-label'))).toEqual(['Pat Nguyen', 'Sam Lee']);
    const patBlocks = within(lanes[0]).getAllByTestId('schedule-block');
    expect(patBlocks.map((block) => block.getAttribute('aria-label'))).toEqual([
      // 10:00 today: the 09:00 visit has no check-in an hour on, so it is overdue (issue 26's live desk).
      '09:00 Margaret Jones Late (Home visit), Not started, 1 h late',
      "10:30 Bert Smith (Home visit), outside client's availability",
    ]);
    // 10:00 → 10:30 between Pat's visits.
    expect(within(lanes[0]).getByTestId('schedule-gap')).toHaveAttribute('title', '30 min between visits');
    expect(within(lanes[1]).queryByTestId('schedule-gap')).toBeNull();
    // The day's visits are also on the map, one route per practitioner with two or more stops.
    const map = await screen.findByTestId('svg-map');
    expect(map).toHaveAttribute('data-marker-count', '3');
    expect(within(map).getAllByTestId('map-route')).toHaveLength(1);

    await user.click(patBlocks[1]);
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    view.unmount();
  });

  it('marks where a new visit fits in the practitioner’s lane when opened from the nearby search', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?view=schedule&start=2026-11-24&end=2026-11-24&practitioner=7&fit=14:30-15:15');
    serve(APPOINTMENTS);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    expect(await screen.findByTestId('fit-note')).toHaveTextContent('From Nearby search: the new visit fits this day at 14:30–15:15');
    const lane = await screen.findByRole('listitem', { name: 'Pat Nguyen' });
    expect(within(lane).getByRole('note', { name: 'The new visit fits here, 14:30–15:15' })).toHaveTextContent('Fits here 14:30');
    view.unmount();
  });

  it('ignores a fit that is not a time span', async () => {
    window.history.replaceState(null, '', '/appointments?view=schedule&start=2026-11-24&end=2026-11-24&practitioner=7&fit=15:15-14:30');
    serve(APPOINTMENTS);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findByTestId('day-schedule');
    expect(screen.queryByTestId('fit-note')).toBeNull();
    expect(screen.queryByTestId('schedule-fit')).toBeNull();
    view.unmount();
  });

  it("draws a practitioner's repeat visit to one place as one pin numbered with both stops", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?view=schedule');
    const home = { lat: -27.46, lng: 152.99 };
    serve([
      ...APPOINTMENTS,
      // Pat is back at Margaret's (her first stop) as the third stop of the day; Sam's stop there stays Sam's own pin.
      makeAppointment({ id: 4, starts_at: '2026-11-24T04:00:00Z', ends_at: '2026-11-24T05:00:00Z', arrive_at: '2026-11-24T04:00:00Z', practitioner: PAT, ...home }),
    ]);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const map = await screen.findByTestId('svg-map');
    await waitFor(() => expect(map).toHaveAttribute('data-marker-count', '3'));
    const pins = within(map).getAllByTestId('map-marker');
    expect(pins.map((pin) => pin.textContent)).toEqual(['Pat Nguyen: stop 1 Margaret Jones, stop 3 Margaret Jones1,3', 'Pat Nguyen: Bert Smith2', 'Sam Lee: Cora Diaz1']);
    view.unmount();
  });

  it("draws a routed day's start and end places, with a legend to hide a practitioner", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?view=schedule');
    const home = { kind: 'home', id: null, name: 'Home', lat: -27.5, lng: 153.0 };
    const route = {
      id: 50, practitioner_id: 7, practitioner_name: 'Pat Nguyen', color: '#0284c7', day: '2026-11-24', start_place: home, end_place: home,
      stops: [
        { appointment_id: 1, arrive_at: '2026-11-23T23:00:00Z', travel_seconds: 600, travel_metres: 4200 },
        { appointment_id: 2, arrive_at: '2026-11-24T00:30:00Z', travel_seconds: 420, travel_metres: 3100 },
      ],
      return_leg: { travel_seconds: 700, travel_metres: 5000 },
      metrics: { travel_seconds: 1720, travel_metres: 12300, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 },
      optimization_id: 3, applied_by_name: 'Ada Admin', applied_at: '2026-11-23T08:00:00Z', stale_at: null,
    };
    const patsDay = {
      practitioner_id: 7, start_place: home, end_place: home, start_leg: { travel_seconds: 600, travel_metres: 4200 }, end_leg: { travel_seconds: 700, travel_metres: 5000 },
      depart_at: '2026-11-23T22:50:00Z', back_at: '2026-11-24T01:12:00Z', estimated: false, route_id: 50, route_changed: false,
    };
    serve(APPOINTMENTS, [route], [patsDay]);
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const map = await screen.findByTestId('svg-map');
    await waitFor(() => expect(within(map).getAllByTestId('map-marker').map((pin) => pin.getAttribute('data-kind'))).toEqual(['startEnd', 'stop', 'stop', 'stop']));
    expect(within(map).getAllByTestId('map-marker')[0]).toHaveTextContent('Pat Nguyen: starts and ends at HomeS/E');
    // Pat's legs run from home through both visits and back.
    expect(within(map).getAllByTestId('map-route')[0].getAttribute('points')!.split(' ')).toHaveLength(4);

    await user.click(within(screen.getByTestId('map-legend')).getByRole('checkbox', { name: /Pat Nguyen/ }));
    await waitFor(() => expect(within(map).getAllByTestId('map-marker')).toHaveLength(1));
    expect(within(map).getByTestId('map-marker')).toHaveTextContent('Sam Lee: Cora Diaz1');
    view.unmount();
  });

  it('draws the legs along the roads when the server has them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?view=schedule');
    serve();
    const road = [{ lat: -27.46, lng: 152.99 }, { lat: -27.47, lng: 152.985 }, { lat: -27.48, lng: 152.99 }, { lat: -27.485, lng: 152.993 }];
    server.use(
      http.get(api('/config'), () => HttpResponse.json({ product_name: 'Rounds', google_maps_api_key: null, help_url: '/help', map_style_url: null, map_attribution: null, road_geometry: true })),
      http.post(api('/travel'), () => HttpResponse.json({ legs: [{ travel_seconds: 300, travel_metres: 2600 }], geometry: road, source: 'osrm' })),
    );
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const map = await screen.findByTestId('svg-map');
    await waitFor(() => expect(within(map).getByTestId('map-route').getAttribute('points')!.split(' ')).toHaveLength(4));
    expect(sent.filter((request) => request.path === '/api/travel').map((request) => request.body)).toEqual([
      { points: [{ lat: -27.46, lng: 152.99 }, { lat: -27.485, lng: 152.993 }], geometry: true },
    ]);
    view.unmount();
  });

  it('pages through a long range and starts again at page 1 when a filter changes', async () => {
    const many = Array.from({ length: 120 }, (_, index) =>
      makeAppointment({ id: 1000 + index, starts_at: new Date(Date.parse('2026-11-23T20:00:00Z') + index * 60_000).toISOString(), practitioner: PAT }));
    serve(many);
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    expect(await screen.findAllByTestId('appointment-row')).toHaveLength(50);
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–50 of 120');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('pagination-summary')).toHaveTextContent('51–100 of 120'));
    expect(listRequests().at(-1)!.get('page')).toBe('2');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(screen.getAllByTestId('appointment-row')).toHaveLength(100));
    expect(Object.fromEntries(listRequests().at(-1)!)).toMatchObject({ page: '1', per_page: '100' });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('appointment-row')).toHaveLength(20));
    await user.click(within(screen.getByTestId('filter-practitioners')).getByRole('button'));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Pat Nguyen' }));
    await waitFor(() => expect(listRequests().at(-1)!.getAll('practitioner_ids')).toEqual(['7']));
    expect(listRequests().at(-1)!.get('page')).toBe('1');
    view.unmount();
  });
});

describe('appointments page state in the address', () => {
  const here = () => new URLSearchParams(window.location.search);

  it('reads the range, filters, view and page from a shared link and writes changes back', async () => {
    window.history.replaceState(null, '', '/appointments?start=2026-11-24&end=2026-11-26&practitioner=7&type=3&page=2&per_page=10');
    const many = Array.from({ length: 30 }, (_, index) =>
      makeAppointment({ id: 1000 + index, starts_at: new Date(Date.parse('2026-11-23T20:00:00Z') + index * 60_000).toISOString(), practitioner: PAT }));
    serve(many);
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findAllByTestId('appointment-row');
    const first = listRequests()[0];
    expect(Object.fromEntries(first)).toMatchObject({ start_date: '2026-11-24', end_date: '2026-11-26', page: '2', per_page: '10' });
    expect(first.getAll('practitioner_ids')).toEqual(['7']);
    expect(first.getAll('appointment_type_ids')).toEqual(['3']);
    expect(screen.getByTestId('date-range-button')).toHaveTextContent('24 Nov 2026 – 26 Nov 2026');
    expect(within(screen.getByTestId('filter-practitioners')).getByRole('button')).toHaveTextContent('Pat Nguyen');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(here().get('page')).toBe('3'));
    await user.click(screen.getByRole('button', { name: 'Day schedule' }));
    await waitFor(() => expect(here().get('view')).toBe('schedule'));
    // A new range goes back to the first page, which is the default and so leaves the address.
    await user.click(screen.getByRole('button', { name: 'Next period' }));
    await waitFor(() => expect(here().get('start')).toBe('2026-11-27'));
    expect(here().get('end')).toBe('2026-11-29');
    expect(here().has('page')).toBe(false);
    expect(here().getAll('practitioner')).toEqual(['7']);
    view.unmount();
  });

  it('shows today, every practitioner and the first page when the address holds values it cannot use', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?start=2026-02-30&end=soon&practitioner=abc&view=map&page=-1&per_page=7&day=x');
    serve();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    expect(await screen.findAllByTestId('appointment-row')).toHaveLength(3);
    expect(Object.fromEntries(listRequests()[0])).toEqual({ start_date: '2026-11-24', end_date: '2026-11-24', page: '1', per_page: '50' });
    view.unmount();
  });

  it('writes a chosen range as both start and end, even when it starts today, so a link names the same days later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments');
    serve();
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findAllByTestId('appointment-row');
    await user.click(screen.getByTestId('date-range-button'));
    await user.click(await screen.findByRole('button', { name: /November 26(th)?, 2026/ }));
    await waitFor(() => expect(here().get('end')).toBe('2026-11-26'));
    expect(here().get('start')).toBe('2026-11-24');
    // Back to today: the default range leaves the address altogether.
    await user.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(here().has('end')).toBe(false));
    expect(here().has('start')).toBe(false);
    view.unmount();
  });

  it.each([
    ['an end alone', 'end=2026-11-22'],
    ['a start alone', 'start=2026-11-26'],
    ['an end before the start', 'start=2026-11-26&end=2026-11-23'],
    ['a range longer than the page shows', 'start=2026-01-01&end=2026-11-26'],
  ])('shows today for %s and corrects the address in place', async (_, search) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments');
    window.history.pushState(null, '', `/appointments?${search}&practitioner=7`);
    const historyLength = window.history.length;
    serve();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    await screen.findAllByTestId('appointment-row');
    expect(Object.fromEntries(listRequests()[0])).toMatchObject({ start_date: '2026-11-24', end_date: '2026-11-24' });
    expect(screen.getByTestId('date-range-button')).toHaveTextContent('24 Nov 2026');
    await waitFor(() => expect(window.location.search).toBe('?practitioner=7'));
    expect(window.history.length).toBe(historyLength);
    view.unmount();
  });

  it('opens an appointment from its link, and Back closes what a click opened', async () => {
    // A day other than today, so the range stays in the address.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?start=2026-11-24&end=2026-11-24&appointment=2');
    serve();
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const linked = await screen.findByTestId('appointment-details-modal');
    expect(await within(linked).findAllByText('Bert Smith')).not.toHaveLength(0);
    await user.click(within(linked).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('appointment-details-modal')).toBeNull());
    expect(here().has('appointment')).toBe(false);
    expect(here().get('start')).toBe('2026-11-24');

    await user.click((await screen.findAllByTestId('appointment-row'))[0]);
    await screen.findByTestId('appointment-details-modal');
    expect(here().get('appointment')).toBe('1');
    window.history.back();
    await waitFor(() => expect(screen.queryByTestId('appointment-details-modal')).toBeNull());
    expect(here().has('appointment')).toBe(false);
    view.unmount();
  });
});
