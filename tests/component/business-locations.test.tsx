// /settings/business-locations: the imported locations with their address, map position and how precise it is, read-only.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { received, server } from './support/fakeApi';
import { currentPath, renderApp, renderPage, useFakeApi } from './support/harness';
import BusinessLocationsPage from '../../src/features/settings/business-locations/BusinessLocationsPage';

useFakeApi();

function serveLocations(answer?: () => Response) {
  server.use(
    http.get('*/api/business_locations/all', () =>
      answer?.() ??
      HttpResponse.json({
        business_locations: [
          { id: 1, name: 'Brisbane North', address: '42 Murphy Road, Chermside QLD 4032', lat: -27.389412, lng: 153.026634, geo_precision: 'address', geo_source: 'google' },
          { id: 2, name: 'Ipswich', address: 'Ipswich QLD 4305', lat: -27.6144, lng: 152.7589, geo_precision: 'suburb', geo_source: 'gazetteer' },
          { id: 3, name: 'Mobile team', address: null, lat: null, lng: null, geo_precision: 'none', geo_source: null },
        ],
      }),
    ),
  );
}

const locationNamed = (name: string) => screen.getAllByTestId('business-location').find((item) => within(item).queryByRole('heading', { name }))!;

describe('business locations', () => {
  it('lists each location with its address, coordinates and how precisely it is placed, and says where they come from', async () => {
    serveLocations();
    renderPage(BusinessLocationsPage, { path: '/settings/business-locations', role: 'ADMIN' });
    expect(await screen.findByRole('heading', { name: 'Business locations', level: 1 })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Business locations' });
    expect(screen.getByText(/These come from your practice management system with each import/)).toHaveTextContent(
      'can be a practitioner’s start or end place',
    );

    const north = locationNamed('Brisbane North');
    expect(north).toHaveTextContent('42 Murphy Road, Chermside QLD 4032');
    expect(within(north).getByTestId('placement')).toHaveTextContent('Placed at the address (from Google).-27.3894, 153.0266');
    expect(within(locationNamed('Ipswich')).getByTestId('placement')).toHaveTextContent(
      'Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table).-27.6144, 152.7589',
    );
    const mobile = locationNamed('Mobile team');
    expect(mobile).toHaveTextContent('No address in the practice management system');
    expect(within(mobile).getByTestId('placement')).toHaveTextContent('Not on the map: it cannot be a start or end place until the address can be placed.');
    // Read-only: nothing to edit or delete.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit|Delete|Save/ })).toBeNull();
  });

  it('says when there are none yet, and when they cannot be loaded', async () => {
    serveLocations(() => HttpResponse.json({ business_locations: [] }));
    const first = renderPage(BusinessLocationsPage, { path: '/settings/business-locations', role: 'ADMIN' });
    expect(await screen.findByText('No business locations yet: they arrive with the first import.')).toBeInTheDocument();
    first.unmount();

    serveLocations(() => HttpResponse.json({ message: 'The database is resting.' }, { status: 503 }));
    renderPage(BusinessLocationsPage, { path: '/settings/business-locations', role: 'ADMIN' });
    expect(await screen.findByText('The database is resting.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('is not shown to a REGULAR_USER, and nothing is fetched for them', async () => {
    serveLocations();
    renderApp('/settings/business-locations', { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(screen.queryByRole('list', { name: 'Business locations' })).toBeNull();
    expect(received.some((request) => request.path === '/api/business_locations/all')).toBe(false);
  });
});
