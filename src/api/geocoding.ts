// Placing an address typed on a settings page (a practitioner's home, a custom location) on the map: POST /geocode.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

export type GeocodeResult = components['schemas']['GeocodeResult'];

export const GEOCODE_ERROR = 'An error has occurred. Could not look up the address.';

/** The point for an address written on one line; the server reads the suburb, state and postcode from it. */
export async function geocodeAddressLine(api: ApiClient, address: string): Promise<GeocodeResult> {
  const result = await api.POST('/geocode', { body: { address_1: address.trim() } });
  return unwrap(result, GEOCODE_ERROR);
}
