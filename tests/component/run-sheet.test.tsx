import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { RunSheet } from '../../src/ui/RunSheet';
import { findRoute } from '../../src/router/routeTable';
import type { Appointment, AppointmentSummary } from '../../src/entities/appointments/api';
import { api, server, received } from './support/fakeApi';
import { makeAppointment, makeClient } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();
afterEach(() => {
  vi.useRealTimers();
});

const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane', color: '#9333ea' };
// Tuesday 24 Nov 2026, Brisbane (UTC+10): Bert at 11:00 is booked first but Margaret (09:00) comes first in the day.
const BERT = makeAppointment({
  id: 2, starts_at: '2026-11-24T01:00:00Z', ends_at: '2026-11-24T02:00:00Z', arrive_at: '2026-11-24T01:00:00Z', practitioner: PAT,
  lat: -27.485, lng: 152.993, geo_precision: 'suburb', geo_source: 'gazetteer', suburb: 'Toowong',
  location: { address_1: '3 High St', city: 'Toowong', state: 'QLD', post_code: '4066', country: 'Australia' },
  client: { id: 12, full_name: 'Bert Smith', time_zone: null, availability: [] },
});
const MARGARET = makeAppointment({ id: 1, starts_at: '2026-11-23T23:00:00Z', ends_at: '2026-11-24T00:00:00Z', arrive_at: '2026-11-23T22:50:00Z', practitioner: PAT });
const CANCELLED = makeAppointment({ id: 3, status: 'CANCELLED', cancelled_at: '2026-11-20T00:00:00Z', starts_at: '2026-11-24T03:00:00Z', ends_at: '2026-11-24T04:00:00Z', practitioner: PAT });
const HOME = { kind: 'home', id: null, name: 'Home', lat: -27.5, lng: 153.0, geo_precision: 'street' };

const ROUTE = {
  id: 50, practitioner_id: 7, practitioner_name: 'Pat Nguyen', color: '#9333ea', day: '2026-11-24', start_place: HOME, end_place: HOME,
  stops: [
    { appointment_id: 1, arrive_at: '2026-11-23T22:50:00Z', travel_seconds: 600, travel_metres: 4200 },
    { appointment_id: 2, arrive_at: '2026-11-24T01:00:00Z', travel_seconds: 420, travel_metres: 3180 },
  ],
  return_leg: { travel_seconds: 900, travel_metres: 12_400 },
  metrics: {
    travel_seconds: 1920, travel_metres: 19_750, idle_seconds: 0, overtime_seconds: 0, late_visits: 0,
    depart_at: '2026-11-23T22:40:00Z', end_at: '2026-11-24T02:15:00Z',
  },
  optimization_id: 3, applied_by_name: 'Ada Admin', applied_at: '2026-11-23T08:00:00Z', stale_at: null as string | null,
};

const uniqueById = <Item extends { id: number }>(items: Item[]) => [...new Map(items.map((item) => [item.id, item])).values()];

// The day as the server reads it now: Margaret (1) then Bert (2), from and to home.
const visitTravel = (id: number, previous: number | null, seconds: number | null = null, metres: number | null = null) => ({
  appointment_id: id, practitioner_id: 7, previous_appointment_id: previous, travel_seconds_from_previous: seconds, travel_metres: metres,
  gap_seconds: null, needs_more_seconds: 0, on_leave: false,
});
const PAT_DAY = {
  practitioner_id: 7, start_place: HOME, end_place: HOME, start_leg: { travel_seconds: 600, travel_metres: 4200 }, end_leg: { travel_seconds: 900, travel_metres: 12_400 },
  depart_at: '2026-11-23T22:40:00Z', back_at: '2026-11-24T02:15:00Z', estimated: false, route_id: 50, route_changed: false,
};
const ROUTED_DAY = { appointments: [visitTravel(1, null), visitTravel(2, 1, 420, 3180)], practitioners: [PAT_DAY] };

function serve(appointments: Appointment[], routes: unknown[], day: unknown = ROUTED_DAY) {
  const travel = { legs: [{ travel_seconds: 780, travel_metres: 5100 }], geometry: null, source: 'estimate' };
  server.use(
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [PAT] })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [] })),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
    http.get(api('/appointments'), () => HttpResponse.json({
      appointments: appointments.map(({ id, starts_at, ends_at, arrive_at, route_id, status, suburb, lat, lng, geo_precision, client, practitioner, appointment_type, business_location }) => ({
        id, starts_at, ends_at, arrive_at, route_id, status, suburb, lat, lng, geo_precision,
        client_id: client?.id ?? null, practitioner_id: practitioner.id, appointment_type_id: appointment_type?.id ?? null, business_location_id: business_location?.id ?? null,
      })),
      clients: uniqueById(appointments.flatMap(({ client }) => (client ? [client] : []))),
      practitioners: [{ id: 7, full_name: 'Pat Nguyen', time_zone: 'Australia/Brisbane', color: '#9333ea' }],
      appointment_types: uniqueById(appointments.flatMap(({ appointment_type }) => (appointment_type ? [appointment_type] : []))),
      meta: { page: 1, per_page: appointments.length, total: appointments.length },
    })),
    http.get(api('/appointments/travel'), () => HttpResponse.json({ date: '2026-11-24', travel: 'haversine', ...(day as object) })),
    http.get(api('/appointments/:id'), ({ params }) => HttpResponse.json({ appointment: appointments.find((item) => String(item.id) === params.id) })),
    http.get(api('/appointments/:id/extra_details'), () => HttpResponse.json({ resource_map: null, versions: [], import_history: [], export_history: [] })),
    http.get(api('/clients/11'), () => HttpResponse.json({ client: makeClient() })),
    http.get(api('/clients/12'), () => HttpResponse.json({ client: makeClient({ id: 12, full_name: 'Bert Smith', phone_numbers: [{ number: '(07) 3300 1234', phone_type: 'Home' }, { number: '0411 222 333', phone_type: null }] }) })),
    http.get(api('/routes'), () => HttpResponse.json({ routes })),
    http.post(api('/travel'), () => HttpResponse.json(travel)),
  );
}

function renderAsPractitioner(path = '/appointments') {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
  window.history.replaceState(null, '', path);
  return renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'PRACTITIONER' });
}

const text = (elements: HTMLElement[]) => elements.map((element) => element.textContent);

describe("a practitioner's run sheet", () => {
  it('is where a practitioner lands on /appointments: the routed day in order, with times, travel, places, addresses, phones and directions', async () => {
    serve([BERT, MARGARET, CANCELLED], [ROUTE]);
    const view = renderAsPractitioner();
    const sheet = await screen.findByTestId('run-sheet');
    expect(screen.getByRole('button', { name: 'Run sheet' })).toHaveAttribute('aria-pressed', 'true');
    // The cancelled visit is not a stop; the route's order is the day's.
    const stops = within(sheet).getAllByTestId('run-sheet-stop');
    expect(stops).toHaveLength(2);
    expect(text(within(sheet).getAllByTestId('run-sheet-arrival'))).toEqual(['08:50', '11:00']);
    expect(stops[0]).toHaveTextContent('Margaret Jones');
    expect(stops[0]).toHaveTextContent('Home visit · 60 min');
    expect(within(sheet).getByTestId('run-sheet-summary')).toHaveTextContent('2 visits · 32 min travel · 20 km · optimised route');
    expect(within(sheet).getByTestId('run-sheet-start')).toHaveTextContent(/^SStart at Home · leave 08:40Approximate: street only/);
    expect(within(sheet).getByTestId('run-sheet-end')).toHaveTextContent('End at Home · back by 12:15');
    expect(text(within(sheet).getAllByTestId('run-sheet-leg'))).toEqual(['↓Travel 10 min · 4.2 km', '↓Travel 7 min · 3.2 km', '↓Travel 15 min · 12 km']);
    // The way back is in the end's item, as each stop's leg is in its stop's: the list holds items only (axe: a <p>
    // straight in an <ol> is a serious issue).
    expect([...within(sheet).getByRole('list', { name: 'Stops in visiting order' }).children].map((child) => child.tagName)).toEqual(['LI', 'LI', 'LI', 'LI']);
    expect(within(sheet).getByTestId('run-sheet-end')).toHaveTextContent(/^↓Travel 15 min · 12 kmEEnd at Home · back by 12:15Approximate/);

    // The visit's own address, from its details; the client's phones as tel: links; directions in three apps.
    await waitFor(() => expect(within(stops[1]).getByTestId('run-sheet-address')).toHaveTextContent('3 High St, Toowong QLD 4066, Australia'));
    // Bert's pin is only his suburb's centre, and says so; Margaret's is at her address.
    expect(within(within(stops[1]).getByTestId('run-sheet-address')).getByTestId('point-precision')).toHaveTextContent('Approximate: suburb only');
    expect(within(stops[0]).queryByTestId('point-precision')).toBeNull();
    expect(await within(stops[1]).findByRole('link', { name: 'Home: (07) 3300 1234' })).toHaveAttribute('href', 'tel:0733001234');
    expect(within(stops[1]).getByRole('link', { name: '0411 222 333' })).toHaveAttribute('href', 'tel:0411222333');
    const directions = within(stops[1]).getByLabelText('Directions to Bert Smith');
    const query = encodeURIComponent('3 High St, Toowong QLD 4066, Australia');
    expect(within(directions).getByRole('link', { name: 'Google Maps' })).toHaveAttribute('href', `https://www.google.com/maps/search/?api=1&query=${query}`);
    expect(within(directions).getByRole('link', { name: 'Apple Maps' })).toHaveAttribute('href', `https://maps.apple.com/?q=${query}`);
    expect(within(directions).getByRole('link', { name: 'Waze' })).toHaveAttribute('href', `https://waze.com/ul?q=${query}&navigate=yes`);

    // The map: home (start and end) and the two stops, numbered; no legend for one practitioner.
    const map = await within(sheet).findByTestId('svg-map');
    await waitFor(() => expect(within(map).getAllByTestId('map-marker').map((pin) => pin.textContent)).toEqual([
      'Pat Nguyen: starts and ends at HomeS/E', 'Pat Nguyen: Margaret Jones1', 'Pat Nguyen: Bert Smith2',
    ]));
    expect(within(sheet).queryByTestId('map-legend')).toBeNull();
    // A routed day does not ask for travel the route already knows (the server has no road lines to add).
    expect(received.filter((request) => request.path === '/api/travel')).toHaveLength(0);

    await userEvent.setup().click(within(stops[0]).getByRole('button', { name: 'Details' }));
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    view.unmount();
  });

  it('after a visit is moved by hand, shows the day as it is now, never the route\'s old figures, and never tells a practitioner to optimise', async () => {
    // Bert moved by hand to 14:00: the route (stale) still says back by 12:15; the server's reading of the day says 15:15.
    const moved = { ...BERT, starts_at: '2026-11-24T04:00:00Z', ends_at: '2026-11-24T05:00:00Z', arrive_at: '2026-11-24T04:00:00Z', route_id: null };
    const day = {
      appointments: [visitTravel(1, null), visitTravel(2, 1, 840, 6100)],
      practitioners: [{ ...PAT_DAY, back_at: '2026-11-24T05:15:00Z', estimated: true, route_changed: true }],
    };
    serve([MARGARET, moved], [{ ...ROUTE, stale_at: '2026-11-23T09:00:00Z', stops: [ROUTE.stops[0]] }], day);
    const view = renderAsPractitioner();
    const sheet = await screen.findByTestId('run-sheet');
    expect(text(within(sheet).getAllByTestId('run-sheet-arrival'))).toEqual(['08:50', '14:00']);
    expect(text(within(sheet).getAllByTestId('run-sheet-leg'))).toEqual(['↓Travel about 10 min · 4.2 km', '↓Travel about 14 min · 6.1 km', '↓Travel about 15 min · 12 km']);
    expect(within(sheet).getByTestId('run-sheet-end')).toHaveTextContent('End at Home · back by 15:15');
    expect(within(sheet).getByTestId('run-sheet-summary')).toHaveTextContent('2 visits · about 39 min travel · 23 km · in arrival order');
    expect(sheet).not.toHaveTextContent(/optimis/i);
    expect(within(sheet).queryByRole('status')).toBeNull();
    view.unmount();
  });

  it("shows each visit's notes on its stop", async () => {
    serve([{ ...BERT, notes: 'Key safe at front door — code in client file.' }, { ...MARGARET, notes: '  ' }], []);
    const view = renderAsPractitioner();
    const sheet = await screen.findByTestId('run-sheet');
    const stops = within(sheet).getAllByTestId('run-sheet-stop');
    await waitFor(() => expect(within(stops[1]).getByTestId('run-sheet-notes')).toHaveTextContent('Notes: Key safe at front door — code in client file.'));
    expect(within(stops[0]).queryByTestId('run-sheet-notes')).toBeNull();
    view.unmount();
  });

  it('tells staff reading the same day that the times changed since the route was planned', async () => {
    const day = { ...ROUTED_DAY, practitioners: [{ ...PAT_DAY, route_changed: true }] };
    serve([MARGARET, BERT], [], day);
    // The list's shape (an appointment with its ids), as the page hands it.
    const summaries = [MARGARET, BERT].map((visit) => ({ ...visit, business_location_id: null })) as unknown as AppointmentSummary[];
    const view = renderWithServices(<RunSheet appointments={summaries} day="2026-11-24" businessTimeZone="Australia/Brisbane" />, { role: 'REGULAR_USER' });
    const sheet = await screen.findByTestId('run-sheet');
    expect(within(sheet).getByRole('status')).toHaveTextContent('Times changed since the route was planned.');
    expect(within(sheet).getByTestId('run-sheet-summary')).toHaveTextContent('route changed by hand');
    view.unmount();
  });

  it('lists a day without a route in arrival order, with the travel the server estimates', async () => {
    serve([BERT, MARGARET], [], {
      appointments: [visitTravel(1, null), visitTravel(2, 1, 780, 5100)],
      practitioners: [{ ...PAT_DAY, start_place: null, end_place: null, start_leg: null, end_leg: null, depart_at: null, back_at: null, estimated: true, route_id: null }],
    });
    const view = renderAsPractitioner();
    const sheet = await screen.findByTestId('run-sheet');
    expect(text(within(sheet).getAllByTestId('run-sheet-arrival'))).toEqual(['08:50', '11:00']);
    expect(within(sheet).queryByTestId('run-sheet-start')).toBeNull();
    await waitFor(() => expect(text(within(sheet).getAllByTestId('run-sheet-leg'))).toEqual(['↓Travel about 13 min · 5.1 km']));
    expect(within(sheet).getByTestId('run-sheet-summary')).toHaveTextContent('2 visits · about 13 min travel · 5.1 km · in arrival order');
    view.unmount();
  });

  it('is not offered to staff, who land on the list', async () => {
    serve([MARGARET], []);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    window.history.replaceState(null, '', '/appointments?view=run');
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'REGULAR_USER' });
    expect(await screen.findAllByTestId('appointment-row')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Run sheet' })).toBeNull();
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    view.unmount();
  });
});
