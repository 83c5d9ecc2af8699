// The calls of the routes area: a day's applied routes (GET /routes?date=; a PRACTITIONER gets their own), the travel
// between points, removing a route, taking a visit off its route and "Keep this time". The runs themselves are in src/api/optimizations.ts (the optimisation-run machine calls them).
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import type { Appointment } from '../../api/types';
import { unwrap } from '../../api/errors';
import { ensureOk } from '../clients';

type Schemas = components['schemas'];
export type Route = Schemas['Route'];
export type RoutePlace = Schemas['RoutePlace'];

export const ROUTES_LOAD_ERROR = 'An error has occurred. Could not load the day’s routes.';

export const ROUTE_ERRORS = {
  remove: 'An error has occurred. Could not remove the route.',
  removeVisit: 'An error has occurred. Could not take the visit off its route.',
  lock: 'An error has occurred. Could not change "Keep this time".',
} as const;

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

export async function deleteRoute(api: ApiClient, id: number): Promise<void> {
  ensureOk(await api.DELETE('/routes/{id}', { params: { path: { id } } }), ROUTE_ERRORS.remove);
}

export async function removeFromRoute(api: ApiClient, appointmentId: number): Promise<Appointment> {
  const result = await api.POST('/appointments/{id}/remove_from_route', { params: { path: { id: appointmentId } } });
  return unwrap(result, ROUTE_ERRORS.removeVisit).appointment;
}

export async function setArrivalLock(api: ApiClient, appointmentId: number, locked: boolean): Promise<Appointment> {
  const result = await api.PUT('/appointments/{id}/arrival_lock', { params: { path: { id: appointmentId } }, body: { locked } });
  return unwrap(result, ROUTE_ERRORS.lock).appointment;
}
