// The calls of the routes area: a day's applied routes (GET /routes?date=; a PRACTITIONER gets their own).
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
export type Route = Schemas['Route'];
export type RoutePlace = Schemas['RoutePlace'];

export const ROUTES_LOAD_ERROR = 'An error has occurred. Could not load the day’s routes.';

/** `date` is yyyy-MM-dd in the business's zone. */
export async function fetchDayRoutes(api: ApiClient, date: string): Promise<Route[]> {
  const result = await api.GET('/routes', { params: { query: { date } } });
  return unwrap(result, ROUTES_LOAD_ERROR).routes;
}

export type LatLng = Schemas['LatLng'];
export type TravelAnswer = { legs: Schemas['RouteLeg'][]; geometry: LatLng[] | null; source: 'osrm' | 'estimate' };

/** The legs between consecutive points (and the road's line when `geometry` and the server has OSRM). */
export async function measureTravel(api: ApiClient, points: readonly LatLng[], geometry: boolean): Promise<TravelAnswer> {
  const result = await api.POST('/travel', { body: { points: points.map(({ lat, lng }) => ({ lat, lng })), geometry } });
  return unwrap(result, 'An error has occurred. Could not work out the travel.');
}
