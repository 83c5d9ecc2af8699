// Nearby search (issue 13): from a client (type-ahead) or a typed address (the routing geocoder), the practitioners
// who could take a new visit there, cheapest first, and the clients within the radius; the search in the address;
// the geocoder finding nothing said in words; a PRACTITIONER never searches.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, received, server } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import SearchPage from '../../src/features/search/SearchPage';

useFakeApi();

const insertion = (arrive: string, leave: string, reach: string, seconds: number, metres: number, after: number | null, before: number | null) => ({
  arrive_at: arrive, leave_at: leave, reach_at: reach, after_appointment_id: after, before_appointment_id: before,
  added_travel_seconds: seconds, added_travel_metres: metres, lateness_seconds: 0,
});
const RESULT = {
  origin: { lat: -27.42, lng: 153.05, client_id: 84, label: 'Alan Chen' },
  date: '2026-11-26', radius_metres: 20_000, duration_minutes: 45,
  clients: [
    { client_id: 84, name: 'Alan Chen', suburb: 'Wooloowin', distance_metres: 0, lat: -27.42, lng: 153.05, tags: [] },
    { client_id: 9, name: 'Ronald Graham', suburb: 'Wooloowin', distance_metres: 57, lat: -27.4202, lng: 153.0495, tags: [{ id: 3, name: 'Dog on site', color: '#f59e0b' }] },
  ],
  practitioners: [
    {
      practitioner_id: 5, name: 'Isla Lewis', color: '#911eb4', visits: 0, start_distance_metres: 1661, free_minutes: 630,
      // 07:10–07:55 in Brisbane, reached on time.
      insertion: insertion('2026-11-25T21:10:00.000Z', '2026-11-25T21:55:00.000Z', '2026-11-25T21:10:00.000Z', 620, 4484, null, null),
      path: [{ lat: -27.43, lng: 153.04 }, { lat: -27.42, lng: 153.05 }, { lat: -27.43, lng: 153.04 }],
    },
    {
      practitioner_id: 2, name: 'Jack Thompson', color: '#3cb44b', visits: 4, start_distance_metres: 8085, free_minutes: 300,
      insertion: insertion('2026-11-26T06:20:00.000Z', '2026-11-26T07:05:00.000Z', '2026-11-26T06:15:40.000Z', 692, 6492, 378, null),
      path: [{ lat: -27.5, lng: 153 }, { lat: -27.45, lng: 153.02 }, { lat: -27.42, lng: 153.05 }, { lat: -27.5, lng: 153 }],
    },
    { practitioner_id: 4, name: 'Mia Hughes', color: '#000075', visits: 8, start_distance_metres: 3000, free_minutes: 0, insertion: null, path: [] },
  ],
  message: null,
};

const nearbyRequests = () => received.filter((request) => request.path === '/api/search/nearby').map((request) => new URLSearchParams(request.search ?? ''));

beforeEach(() => {
  server.use(
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [{ id: 1, name: 'Home visit', duration: 45 }] })),
    http.get(api('/search/nearby'), () => HttpResponse.json(RESULT)),
    // The clients whose name has every typed word, in the server's order (sort=match: the whole name's prefix first).
    http.get(api('/clients'), ({ request }) => {
      const words = (new URL(request.url).searchParams.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const named = CLIENTS.filter((client) => words.every((word) => client.full_name.toLowerCase().includes(word)));
      return HttpResponse.json({ clients: named, total: named.length, page: 1, per_page: 5 });
    }),
  );
});
afterEach(() => vi.useRealTimers());

const client = (id: number, first: string, last: string, suburb: string) => ({
  id, full_name: `${first} ${last}`, first_name: first, last_name: last, suburb, phone: null, email: null, tags: [], has_custom_availability: false, has_address: true,
});
const CLIENTS = [client(84, 'Alan', 'Chen', 'Wooloowin'), client(85, 'Alan', 'Chenery', 'Ascot')];
const clientRequests = () => received.filter((request) => request.path === '/api/clients').map((request) => new URLSearchParams(request.search ?? ''));

describe('nearby search', () => {
  it('shows who could take the visit, cheapest first, and the clients within the radius, for the search in the address', async () => {
    renderPage(SearchPage, { path: '/search?near_client=84&date=2026-11-26&radius=10', role: 'REGULAR_USER' });
    const offered = await screen.findByRole('heading', { name: 'Who could take a 45-minute visit on 26 Nov 2026' });
    expect(nearbyRequests()[0].toString()).toBe('client_id=84&radius_km=10&date=2026-11-26');
    const cards = within(offered.closest('section')!).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual([
      expect.stringMatching(/^Isla LewisBest\+10 min travelVisit 07:10–07:55, the only visit of their day; \+4\.5 km\.0 visits that day · 10 h 30 min free · starts 1\.7 km awayOpen Isla Lewis’s day/),
      expect.stringMatching(/^Jack Thompson\+12 min travelVisit 16:20–17:05, after their last visit \(arrives 16:15\); \+6\.5 km\./),
    ]);
    expect(screen.getByText(/No room that day .*: Mia Hughes\./)).toBeInTheDocument();
    expect(screen.getByText('Searching near:')).toHaveTextContent('Searching near: Alan Chen');
    // A coordinator acts on a result: the practitioner's day on the schedule, where the visit would fit.
    expect(within(cards[0]).getByRole('link', { name: 'Open Isla Lewis’s day, 26 Nov 2026, where the visit fits at 07:10' }))
      .toHaveAttribute('href', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26&practitioner=5&fit=07:10-07:55');
    // Or books the visit there: the day schedule's New visit dialog, for the client, with the practitioner at that time.
    expect(within(cards[0]).getByRole('link', { name: 'Book a visit with Isla Lewis, 26 Nov 2026 at 07:10' }))
      .toHaveAttribute('href', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26&new_visit=true&client_id=84&visit_practitioner=5&visit_time=07%3A10');
    // The radius reads as a phrase on the map's legend.
    expect(within(screen.getByTestId('map-legend')).getByText('2 clients within 20 km')).toBeInTheDocument();
    expect(within(screen.getByTestId('map-legend')).queryByText(/0 stops/)).toBeNull();
    const clients = screen.getByRole('heading', { name: 'Clients within 20 km (2)' }).closest('section')!;
    expect(within(clients).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'ClientSuburbDistanceTags', 'Alan ChenWooloowin0.0 km', 'Ronald GrahamWooloowin0.1 kmDog on site',
    ]);
  });

  it('searches from a client chosen as their name is typed, or from a typed address placed by the geocoder', async () => {
    const user = userEvent.setup();
    let geocoded: unknown;
    server.use(http.post(api('/geocode'), async ({ request }) => {
      geocoded = await request.json();
      return HttpResponse.json({ lat: -27.47, lng: 153.02, precision: 'address', source: 'nominatim', label: '1 Queen St' });
    }));
    renderApp('/search', { as: 'ADMIN' });
    const field = await screen.findByRole('combobox', { name: 'Near a client or an address' });
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('Choose a client or type an address to search near it.')).toBeInTheDocument();
    // A combobox: the matches as options, the best match first, taken with the arrow keys and Enter.
    await user.type(field, 'Alan Chen');
    const options = within(await screen.findByRole('listbox', { name: 'Matching clients' }));
    expect(field).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(clientRequests().at(-1)?.get('sort')).toBe('match'));
    await waitFor(() => expect(options.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Alan Chen · Wooloowin', 'Alan Chenery · Ascot', 'Search near the address “Alan Chen”',
    ]));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(options.getByRole('option', { name: /Alan Chenery/ })).toHaveAttribute('data-focus'));
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(window.location.search).toBe('?near_client=84'));
    await waitFor(() => expect(nearbyRequests().at(-1)?.get('client_id')).toBe('84'));
    expect(field).toHaveAttribute('aria-expanded', 'false');

    await user.type(field, '1 Queen St, Brisbane{Enter}');
    await waitFor(() => expect(nearbyRequests().at(-1)?.get('lat')).toBe('-27.47'));
    expect(geocoded).toEqual({ address_1: '1 Queen St, Brisbane' });
    expect(nearbyRequests().at(-1)?.get('lng')).toBe('153.02');
    expect(nearbyRequests().at(-1)?.has('client_id')).toBe(false);
    expect(new URLSearchParams(window.location.search).get('address')).toBe('1 Queen St, Brisbane');
    expect(new URLSearchParams(window.location.search).has('near_client')).toBe(false);
  });

  it("marks the business's today on the day's calendar, not the browser's", async () => {
    const user = userEvent.setup();
    // 20:00 UTC on 25 Nov is already 06:00 on 26 Nov in Brisbane, the business's zone.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T20:00:00Z'));
    expect(new Date().getDate()).toBe(25);
    renderPage(SearchPage, { path: '/search?near_client=84&date=2026-11-28', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: /^Day/ }));
    const today = await waitFor(() => {
      const cell = document.querySelector('[data-today]');
      expect(cell).not.toBeNull();
      return cell!;
    });
    expect(today.textContent).toBe('26');
  });

  it('says so when the address cannot be placed, and searches nothing', async () => {
    server.use(http.post(api('/geocode'), () => HttpResponse.json({ lat: null, lng: null, precision: 'none', source: null, label: null })));
    renderPage(SearchPage, { path: '/search?address=Nowhere%20Lane', role: 'ADMIN' });
    expect(await screen.findByText('“Nowhere Lane” could not be placed on the map. Try the street, suburb and postcode.')).toBeInTheDocument();
    expect(nearbyRequests()).toEqual([]);
  });

  it('is not a page a PRACTITIONER can open', async () => {
    renderApp('/search', { as: 'PRACTITIONER' });
    expect(await screen.findByText('Nearby search is for administrators and staff: practitioner accounts cannot open it.')).toBeInTheDocument();
    expect(nearbyRequests()).toEqual([]);
  });
});
