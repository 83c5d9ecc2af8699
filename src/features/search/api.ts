// Nearby search's one call: GET /search/nearby, from a client or from a point (an address placed with POST /geocode).
import type { ApiClient } from '../../api/client';
import type { components, operations } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
export type NearbySearch = Schemas['NearbySearch'];
export type NearbyClient = Schemas['NearbyClient'];
export type NearbyPractitioner = Schemas['NearbyPractitioner'];
export type NearbyQuery = NonNullable<operations['searchNearby']['parameters']['query']>;

export const NEARBY_ERROR = 'An error has occurred. Could not search near this place.';

export async function searchNearby(api: ApiClient, query: NearbyQuery): Promise<NearbySearch> {
  return unwrap(await api.GET('/search/nearby', { params: { query } }), NEARBY_ERROR);
}
