// The routes feature's calls: a day's applied routes, removing one, taking a visit off its route, "Keep this time",
// and the optimisation settings the Optimise dialog reads. The runs themselves are in src/api/optimizations.ts (the
// optimisation-run machine calls them).
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Route } from '../../api/optimizations';
import type { components } from '../../api/schema';
import type { Appointment } from '../appointments/api';
import { ensureOk } from '../clients/api';

export type OptimizationSettings = components['schemas']['OptimizationSettings'];

export const ROUTE_ERRORS = {
  list: 'An error has occurred. Could not load the routes of the day.',
  remove: 'An error has occurred. Could not remove the route.',
  removeVisit: 'An error has occurred. Could not take the visit off its route.',
  lock: 'An error has occurred. Could not change "Keep this time".',
  settings: 'An error has occurred. Could not load the optimisation settings.',
} as const;

export async function listRoutes(api: ApiClient, date: string): Promise<Route[]> {
  return unwrap(await api.GET('/routes', { params: { query: { date } } }), ROUTE_ERRORS.list).routes;
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

export async function fetchOptimizationSettings(api: ApiClient): Promise<OptimizationSettings> {
  return unwrap(await api.GET('/optimization_settings'), ROUTE_ERRORS.settings).optimization_settings;
}
