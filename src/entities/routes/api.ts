// The calls of the routes area: a day's applied routes (GET /routes?date=; a PRACTITIONER gets their own), the travel
// between points, the travel warnings of a day, the day's problems by the rule book, removing a route, taking a visit off its route, "Keep this time",
// moving a visit by hand and the cheapest insertion of a visit ("Insert into a route"). The runs themselves are in src/api/optimizations.ts (the optimisation-run machine calls them).
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import type { Appointment } from '../../api/types';
import type { ChangedAppointment } from '../../api/appointments';
import { unwrap } from '../../api/errors';
import { ensureOk } from '../../api/errors';

type Schemas = components['schemas'];
export type Route = Schemas['Route'];
export type RoutePlace = Schemas['RoutePlace'];

export const ROUTES_LOAD_ERROR = 'An error has occurred. Could not load the day’s routes.';

export const ROUTE_ERRORS = {
  remove: 'An error has occurred. Could not remove the route.',
  removeVisit: 'An error has occurred. Could not take the visit off its route.',
  lock: 'An error has occurred. Could not change "Keep this time".',
  move: 'An error has occurred. Could not move the visit.',
  insertion: 'An error has occurred. Could not find a place for the visit.',
} as const;

export const TRAVEL_LOAD_ERROR = 'An error has occurred. Could not work out the travel between the visits.';

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

export type VisitTravel = Schemas['VisitTravel'];
export type Insertion = Schemas['Insertion'];

export type PractitionerDayTravel = Schemas['PractitionerDayTravel'];
export type DayTravel = { appointments: VisitTravel[]; practitioners: PractitionerDayTravel[] };

/**
 * The day as it is now (`date` yyyy-MM-dd in the business's zone): each visit with the travel from the visit before
 * and whether the gap covers it, and each practitioner's places, legs home and leave and back times.
 */
export async function fetchDayTravel(api: ApiClient, date: string): Promise<DayTravel> {
  const result = await api.GET('/appointments/travel', { params: { query: { date } } });
  const { appointments, practitioners } = unwrap(result, TRAVEL_LOAD_ERROR);
  return { appointments, practitioners };
}

export type RuleIssue = Schemas['RuleIssue'];
export type DayIssues = { counts: { rule: Schemas['RuleId']; title: string; hard: boolean; count: number }[]; issues: RuleIssue[] };

export const ISSUES_LOAD_ERROR = 'An error has occurred. Could not check the day against the rules.';

/** The day checker on the day as it is now (`date` yyyy-MM-dd in the business's zone): its problems by rule, in words. */
export async function fetchDayIssues(api: ApiClient, date: string): Promise<DayIssues> {
  const result = await api.GET('/schedule/issues', { params: { query: { date } } });
  const { counts, issues } = unwrap(result, ISSUES_LOAD_ERROR);
  return { counts, issues };
}

/** into_route: "Insert into a route" applied, the visit joins the route of the day it reaches. */
export type VisitMove = { practitioner_id?: number; starts_at?: string; into_route?: boolean };

/**
 * Moves a visit to another practitioner and/or start (its length kept); 422 names the field when it cannot go there,
 * 409 the hard rule it would break. The answer carries the soft problems the move added.
 */
export async function moveAppointment(api: ApiClient, appointmentId: number, move: VisitMove): Promise<ChangedAppointment> {
  const result = await api.PATCH('/appointments/{id}/move', { params: { path: { id: appointmentId } }, body: move });
  return unwrap(result, ROUTE_ERRORS.move);
}

/** Where the visit would go at the least added travel among these practitioners' days; changes nothing. */
export async function findInsertion(api: ApiClient, appointmentId: number, practitionerIds: number[]): Promise<{ insertion: Insertion | null; message: string | null }> {
  const result = await api.POST('/appointments/{id}/insertion', { params: { path: { id: appointmentId } }, body: { practitioner_ids: practitionerIds } });
  return unwrap(result, ROUTE_ERRORS.insertion);
}
