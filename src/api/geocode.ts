// Placing an address on the map (POST /geocode), for every form that takes an address: custom locations, practitioners'
// homes. Nothing found is an answer (precision 'none'), not an error.
import type { ApiClient } from './client';
import type { components } from './schema';
import { unwrap } from './errors';

export type AddressInput = components['schemas']['AddressInput'];
export type GeocodeResult = components['schemas']['GeocodeResult'];

export const GEOCODE_ERROR = 'An error has occurred. Could not look the address up.';

export async function geocodeAddress(api: ApiClient, address: AddressInput): Promise<GeocodeResult> {
  const result = await api.POST('/geocode', { body: address });
  return unwrap(result, GEOCODE_ERROR);
}
