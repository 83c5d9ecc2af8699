// The calls of the custom locations page (ADMIN): GET/POST /custom_locations, PATCH/DELETE /custom_locations/{id}.
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../api/schema';
import { ApiError, unwrap } from '../../../api/errors';

export type CustomLocation = components['schemas']['CustomLocation'];
export interface CustomLocationInput {
  name: string;
  address: string;
  lat: number;
  lng: number;
  /** How the lookup found lat and lng; left out for a pin placed or moved by hand. */
  precision?: CustomLocation['geo_precision'];
  source?: CustomLocation['geo_source'];
}

export const LOAD_ERROR = 'An error has occurred. Could not load the custom locations.';
export const CREATE_ERROR = 'An error has occurred. Could not create the location.';
export const UPDATE_ERROR = 'An error has occurred. Could not save the location.';
export const DELETE_ERROR = 'An error has occurred. Could not delete the location.';

export async function fetchCustomLocations(api: ApiClient): Promise<CustomLocation[]> {
  return unwrap(await api.GET('/custom_locations'), LOAD_ERROR).custom_locations;
}

export async function createCustomLocation(api: ApiClient, input: CustomLocationInput): Promise<CustomLocation> {
  return unwrap(await api.POST('/custom_locations', { body: input }), CREATE_ERROR).custom_location;
}

export async function updateCustomLocation(api: ApiClient, id: number, changes: Partial<CustomLocationInput>): Promise<CustomLocation> {
  return unwrap(await api.PATCH('/custom_locations/{id}', { params: { path: { id } }, body: changes }), UPDATE_ERROR).custom_location;
}

export async function deleteCustomLocation(api: ApiClient, id: number): Promise<void> {
  const result = await api.DELETE('/custom_locations/{id}', { params: { path: { id } } });
  // 409 names the practitioners whose start or end place it is.
  if (!result.response.ok) throw new ApiError(result.response.status, result.error, DELETE_ERROR);
}
