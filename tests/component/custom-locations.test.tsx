import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import CustomLocationsPage from '../../src/features/settings/custom-locations/CustomLocationsPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const DEPOT = {
  id: 1, name: 'North depot', address: '1 Gympie Rd, Chermside QLD 4032', lat: -27.385, lng: 153.03, geo_precision: 'street', geo_source: 'google',
  used_by: [{ id: 7, full_name: 'Pat Nguyen' }],
};
const OFFICE = { id: 2, name: 'Office', address: '', lat: -27.47, lng: 153.02, geo_precision: 'address', geo_source: 'manual', used_by: [] };
/** What the server stores of a pin: the lookup's precision and source, else placed by hand. */
const pinOf = ({ precision, source, ...rest }: Record<string, unknown>): Partial<typeof DEPOT> =>
  ('lat' in rest ? { ...rest, geo_precision: String(precision ?? 'address'), geo_source: String(source ?? 'manual') } : rest);
const CHERMSIDE = { lat: -27.3853, lng: 153.0307, precision: 'suburb', source: 'gazetteer', label: 'Chermside QLD 4032' };

function serve({ geocoded = CHERMSIDE as Record<string, unknown> } = {}) {
  let locations = [DEPOT, OFFICE];
  server.use(
    http.get(api('/custom_locations'), () => HttpResponse.json({ custom_locations: locations })),
    http.post(api('/geocode'), () => HttpResponse.json(geocoded)),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
    http.post(api('/custom_locations'), async ({ request }) => {
      const body = (await request.json()) as { name: string; address: string; lat: number; lng: number };
      if (body.name === 'Office') return HttpResponse.json({ message: 'A custom location named "Office" already exists.', code: 'CUSTOM_LOCATION_NAME_TAKEN' }, { status: 409 });
      const created = { ...DEPOT, ...pinOf(body), id: 3, used_by: [] };
      locations = [...locations, created];
      return HttpResponse.json({ custom_location: created }, { status: 201 });
    }),
    http.patch(api('/custom_locations/:id'), async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      locations = locations.map((location) => (String(location.id) === params.id ? { ...location, ...pinOf(body) } : location));
      return HttpResponse.json({ custom_location: locations.find((location) => String(location.id) === params.id) });
    }),
    http.delete(api('/custom_locations/:id'), ({ params }) => {
      if (params.id === '1') {
        return HttpResponse.json({ message: '"North depot" is the start or end place of Pat Nguyen. Choose another place for them first.', code: 'CUSTOM_LOCATION_IN_USE' }, { status: 409 });
      }
      locations = locations.filter((location) => String(location.id) !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

const renderPage = () => renderWithServices(<CustomLocationsPage route={findRoute('/settings/custom-locations')!} />);
const newForm = () => screen.getByRole('form', { name: 'New location' });
const requests = (method: string, path: string) => sent.filter((request) => request.method === method && request.path.startsWith(path));

/** Clicks the offline drawing at (x, y) of its 640 × 240 box. */
function clickDrawing(map: HTMLElement, x: number, y: number) {
  map.getBoundingClientRect = () => ({ left: 0, top: 0, width: 640, height: 240, right: 640, bottom: 240, x: 0, y: 0, toJSON: () => ({}) });
  fireEvent.click(map, { clientX: x, clientY: y });
}

describe('custom locations', () => {
  it('lists each place with its address, its point and who starts or ends there, and shows them on a map', async () => {
    serve();
    const view = renderPage();
    const rows = await screen.findAllByTestId('custom-location-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('North depot1 Gympie Rd, Chermside QLD 4032Approximate: street only'),
      expect.stringContaining('OfficeNo address-27.47000, 153.02000'),
    ]);
    expect(rows[0]).toHaveTextContent('-27.38500, 153.03000 · Start or end place of Pat Nguyen');
    // Google placed the depot on its street, not at the building; the office's pin was placed by hand.
    expect(within(rows[0]).getByTestId('point-precision')).toHaveAttribute('data-precision', 'street');
    expect(within(rows[1]).queryByTestId('point-precision')).toBeNull();
    expect(await screen.findByRole('img', { name: 'Map showing 2 locations' })).toBeInTheDocument();
    view.unmount();
  });

  it('says what is missing before creating, and that an address was not found', async () => {
    serve({ geocoded: { lat: null, lng: null, precision: 'none', source: null, label: null } });
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(within(newForm()).getByLabelText('Name')).toHaveAccessibleDescription('Enter a name for the location.');
    expect(within(newForm()).getByText('Find the address on the map, or place the pin yourself, before saving.')).toBeInTheDocument();
    // The first field with a problem takes the focus.
    await waitFor(() => expect(within(newForm()).getByLabelText('Name')).toHaveFocus());

    await user.click(within(newForm()).getByRole('button', { name: 'Find on map' }));
    expect(within(newForm()).getByLabelText('Address')).toHaveAccessibleDescription('Enter an address to look up.');
    expect(requests('POST', '/api/geocode')).toHaveLength(0);

    await user.type(within(newForm()).getByLabelText('Address'), 'Nowhere St, Atlantis{Enter}');
    await waitFor(() => expect(within(newForm()).getByLabelText('Address')).toHaveAccessibleDescription(
      'No place was found for this address. Check it, or place the pin on the map yourself.',
    ));
    expect(requests('POST', '/api/custom_locations')).toHaveLength(0);
    view.unmount();
  });

  it('creates a place from a looked-up address, with its precision, after the pin is moved by hand', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.type(within(newForm()).getByLabelText('Name'), 'Car park');
    await user.type(within(newForm()).getByLabelText('Address'), 'Chermside QLD 4032');
    await user.click(within(newForm()).getByRole('button', { name: 'Find on map' }));
    expect(await within(newForm()).findByTestId('placement-note')).toHaveTextContent(
      'Chermside QLD 4032: Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table). Drag the pin to the exact place if you know it.',
    );
    expect(requests('POST', '/api/geocode')[0].body).toEqual({ address_1: 'Chermside QLD 4032' });

    // On the offline drawing a click moves the pin (up and to the right of the centre, where it stands).
    const map = await within(newForm()).findByTestId('svg-map');
    clickDrawing(map, 420, 60);
    expect(within(newForm()).getByTestId('placement-note')).toHaveTextContent(/^Moved by hand to /);

    await user.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await screen.findByText('The location has been created.')).toBeInTheDocument();
    const body = requests('POST', '/api/custom_locations')[0].body as { name: string; address: string; lat: number; lng: number };
    expect(body).toMatchObject({ name: 'Car park', address: 'Chermside QLD 4032' });
    // Moved by hand after the lookup: no lookup precision is claimed for it.
    expect(body).not.toHaveProperty('precision');
    expect(body.lat).toBeGreaterThan(CHERMSIDE.lat);
    expect(body.lng).toBeGreaterThan(CHERMSIDE.lng);
    await waitFor(() => expect(screen.getAllByTestId('custom-location-row')).toHaveLength(3));
    // The form is empty again for the next one.
    expect(within(newForm()).getByLabelText('Name')).toHaveValue('');
    view.unmount();
  });

  it("shows the server's refusal of a new place", async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.type(within(newForm()).getByLabelText('Name'), 'Office');
    await user.click(within(newForm()).getByRole('button', { name: 'Place the pin yourself' }));
    await user.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await within(newForm()).findByText('A custom location named "Office" already exists.')).toBeInTheDocument();
    expect(within(newForm()).getByLabelText('Name')).toHaveValue('Office');
    view.unmount();
  });

  it('renames a place, sending only the name', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(screen.getByRole('button', { name: 'Edit Office' }));
    const form = screen.getByRole('form', { name: 'Edit Office' });
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Head office');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The location has been saved.')).toBeInTheDocument();
    expect(requests('PATCH', '/api/custom_locations/2')[0].body).toEqual({ name: 'Head office' });
    await waitFor(() => expect(screen.getAllByTestId('custom-location-row').map((row) => row.textContent)).toContainEqual(expect.stringContaining('Head officeNo address')));
    view.unmount();
  });

  it('moves a place by looking its address up again', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(screen.getByRole('button', { name: 'Edit Office' }));
    const form = screen.getByRole('form', { name: 'Edit Office' });
    await user.type(within(form).getByLabelText('Address'), 'Chermside QLD 4032');
    await user.click(within(form).getByRole('button', { name: 'Look the address up again' }));
    await waitFor(() => expect(within(form).getByTestId('placement-note')).toHaveTextContent(/^Approximate: suburb onlyChermside QLD 4032: Placed at the centre/));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('The location has been saved.');
    // The looked-up pin says how precisely it was found, and the list then says so.
    expect(requests('PATCH', '/api/custom_locations/2')[0].body).toEqual({
      address: 'Chermside QLD 4032', lat: CHERMSIDE.lat, lng: CHERMSIDE.lng, precision: 'suburb', source: 'gazetteer',
    });
    await waitFor(() => expect(within(screen.getAllByTestId('custom-location-row')[1]).getByTestId('point-precision')).toHaveTextContent('Approximate: suburb only'));
    view.unmount();
  });

  it("shows the server's 409 when a place came into use since the list was loaded", async () => {
    serve();
    server.use(http.get(api('/custom_locations'), () => HttpResponse.json({ custom_locations: [{ ...DEPOT, used_by: [] }, OFFICE] })));
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(screen.getByRole('button', { name: 'Delete North depot' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete “North depot”? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const depotRow = screen.getAllByTestId('custom-location-row')[0];
    expect(await within(depotRow).findByRole('alert')).toHaveTextContent('"North depot" is the start or end place of Pat Nguyen. Choose another place for them first.');
    view.unmount();
  });

  it('keeps no pin for an address edited after it was looked up: saving asks for the new address to be found first', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(screen.getByRole('button', { name: 'Edit North depot' }));
    const form = screen.getByRole('form', { name: 'Edit North depot' });
    const address = within(form).getByLabelText('Address');
    await user.clear(address);
    await user.type(address, 'Chermside QLD 4032');
    expect(within(form).getByTestId('pin-stale')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The address changed after the pin was placed: look it up again, or drag the pin to the new place.')).toBeInTheDocument();
    expect(requests('PATCH', '/api/custom_locations')).toHaveLength(0);

    await user.click(within(form).getByRole('button', { name: 'Look the address up again' }));
    await waitFor(() => expect(within(form).queryByTestId('pin-stale')).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('The location has been saved.');
    expect(requests('PATCH', '/api/custom_locations/1')[0].body).toEqual({
      address: 'Chermside QLD 4032', lat: CHERMSIDE.lat, lng: CHERMSIDE.lng, precision: 'suburb', source: 'gazetteer',
    });
    view.unmount();
  });

  it('warns when a looked-up place is far from every other place of the business', async () => {
    serve({ geocoded: { lat: -31.9523, lng: 115.8613, precision: 'address', source: 'google', label: '1 Hay St, Perth WA 6000' } });
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.type(within(newForm()).getByLabelText('Address'), '1 Hay Street, Perth');
    await user.click(within(newForm()).getByRole('button', { name: 'Find on map' }));
    expect(await within(newForm()).findByTestId('far-away')).toHaveTextContent(/^This place is 3,\d{3} km from the business’s map centre, the nearest of the business’s other places: check the address before saving\.$/);
    view.unmount();
  });

  it('refuses a new place whose address was edited after Find', async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.type(within(newForm()).getByLabelText('Name'), 'Car park');
    await user.type(within(newForm()).getByLabelText('Address'), 'Chermside QLD 4032');
    await user.click(within(newForm()).getByRole('button', { name: 'Find on map' }));
    await within(newForm()).findByTestId('placement-note');
    await user.type(within(newForm()).getByLabelText('Address'), ', Lutwyche');
    await user.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await within(newForm()).findByText(/The address changed after the pin was placed/)).toBeInTheDocument();
    expect(requests('POST', '/api/custom_locations')).toHaveLength(0);
    view.unmount();
  });

  it("says a place in use cannot be deleted before asking anything, and asks before deleting a place nobody uses", async () => {
    serve();
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findAllByTestId('custom-location-row');
    await user.click(screen.getByRole('button', { name: 'Delete North depot' }));
    const depotRow = screen.getAllByTestId('custom-location-row')[0];
    expect(await within(depotRow).findByRole('alert')).toHaveTextContent('“North depot” cannot be deleted: it is the start or end place of Pat Nguyen. Choose another place for them first.');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests('DELETE', '/api/custom_locations')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Office' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The location has been deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('custom-location-row')).toHaveLength(1));
    expect(requests('DELETE', '/api/custom_locations')).toHaveLength(1);
    view.unmount();
  });
});
