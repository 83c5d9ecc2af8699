// The custom locations' calls (places kept in Rounds only: offices, depots, car parks).
import type { ApiClient } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { components } from '../../../api/schema';

export type CustomLocation = components['schemas']['CustomLocation'];

export async function fetchCustomLocations(api: ApiClient): Promise<CustomLocation[]> {
  const result = await api.GET('/custom_locations');
  return unwrap(result, 'An error has occurred. Could not load the custom locations.').custom_locations;
}
