// Nearby search (issue 13): from a client (type-ahead) or a typed address (the routing geocoder), the practitioners
// who could take a new visit there, cheapest first, and the clients within the radius; the search in the address;
// the geocoder finding nothing said in words; a PRACTITIONER never searches.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, received, server } from './support/fakeApi';
import { renderApp, useFakeApi } from './support/harness';

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
    http.get(api('/clients'), () => HttpResponse.json({
      clients: [{ id: 84, full_name: 'Alan Chen', first_name: 'Alan', last_name: 'Chen', suburb: 'Wooloowin', phone: null, email: null, tags: [], has_custom_availability: false, has_address: true }],
      total: 1, page: 1, per_page: 5,
    })),
  );
});

describe('nearby search', () => {
  it('shows who could take the visit, cheapest first, and the clients within the radius, for the search in the address', async () => {
    renderApp('/search?near_client=84&date=2026-11-26&radius=10', { as: 'REGULAR_USER' });
    const offered = await screen.findByRole('heading', { name: 'Who could take a 45-minute visit on 26 Nov 2026' });
    expect(nearbyRequests()[0].toString()).toBe('client_id=84&radius_km=10&date=2026-11-26');
    const cards = within(offered.closest('section')!).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual([
      expect.stringMatching(/^Isla LewisBest\+10 min travelVisit 07:10–07:55, the only visit of their day; \+4\.5 km\.0 visits that day · 10 h 30 min free · starts 1\.7 km away$/),
      expect.stringMatching(/^Jack Thompson\+12 min travelVisit 16:20–17:05, after their last visit \(arrives 16:15\); \+6\.5 km\./),
    ]);
    expect(screen.getByText(/No room that day .*: Mia Hughes\./)).toBeInTheDocument();
    expect(screen.getByText('Searching near:')).toHaveTextContent('Searching near: Alan Chen');
    const clients = screen.getByRole('heading', { name: 'Clients within 20.0 km (2)' }).closest('section')!;
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
    const field = await screen.findByRole('searchbox', { name: 'Near a client or an address' });
    expect(screen.getByText('Choose a client or type an address to search near it.')).toBeInTheDocument();
    await user.type(field, 'Alan');
    await user.click(await within(await screen.findByRole('list', { name: 'Matching clients' })).findByRole('button', { name: /Alan Chen/ }));
    await waitFor(() => expect(window.location.search).toBe('?near_client=84'));
    await waitFor(() => expect(nearbyRequests().at(-1)?.get('client_id')).toBe('84'));

    await user.type(field, '1 Queen St, Brisbane{Enter}');
    await waitFor(() => expect(nearbyRequests().at(-1)?.get('lat')).toBe('-27.47'));
    expect(geocoded).toEqual({ address_1: '1 Queen St, Brisbane' });
    expect(nearbyRequests().at(-1)?.get('lng')).toBe('153.02');
    expect(nearbyRequests().at(-1)?.has('client_id')).toBe(false);
    expect(new URLSearchParams(window.location.search).get('address')).toBe('1 Queen St, Brisbane');
    expect(new URLSearchParams(window.location.search).has('near_client')).toBe(false);
  });

  it('says so when the address cannot be placed, and searches nothing', async () => {
    server.use(http.post(api('/geocode'), () => HttpResponse.json({ lat: null, lng: null, precision: 'none', source: null, label: null })));
    renderApp('/search?address=Nowhere%20Lane', { as: 'ADMIN' });
    expect(await screen.findByText('“Nowhere Lane” could not be placed on the map. Try the street, suburb and postcode.')).toBeInTheDocument();
    expect(nearbyRequests()).toEqual([]);
  });

  it('is not a page a PRACTITIONER can open', async () => {
    renderApp('/search', { as: 'PRACTITIONER' });
    expect(await screen.findByText('Nearby search is for administrators and staff: practitioner accounts cannot open it.')).toBeInTheDocument();
    expect(nearbyRequests()).toEqual([]);
  });
});
