// The one answer to "how far did a practitioner travel on a day": every leg of each practitioner's day over a range
// of days, in the order the visits are reached. A leg comes from the day's applied route when the route still says
// it (the route is not stale and has these two stops one after the other, or that stop first or last); otherwise it
// is estimated with the optimiser's travel provider (the caller passes travelProviderFor of ./provider: OSRM_URL when
// set, else its great-circle model; cached per process), one matrix per practitioner-day at most and none for a day the route answers whole.
// The legs counted: start place → first visit and last visit → end place when the practitioner has those places
// (the end place: the start place when none is chosen), and each visit → the next. A visit without a map point is
// not part of the chain (the legs go round it) and is counted apart.
import type { Place } from '../../db/schema';
import type { Db } from '../../db/client';
import type { TravelMatrix, TravelProvider } from '../../optimizer';
import { loadPractitionerDays } from '../practitioners';
import { routesOfDays, visitsOfDays, type DaysQuery, type LegRoute, type LegVisit } from './legs-repository';

export type { DaysQuery, LegRoute, LegVisit } from './legs-repository';

export type LegSource = 'route' | 'estimate';

export interface TravelLeg {
  /** start: the start place → the first visit; between: a visit → the next; end: the last visit → the end place. */
  kind: 'start' | 'between' | 'end';
  fromAppointmentId: number | null;
  toAppointmentId: number | null;
  fromName: string;
  toName: string;
  seconds: number;
  metres: number;
  source: LegSource;
}

export interface TravelDay {
  practitionerId: number;
  practitionerName: string;
  day: string;
  /** Every visit of the day that is not cancelled, in the order reached (arrival, then id). */
  visits: LegVisit[];
  /** Visits of the day without a map point: no leg reaches them. */
  unlocatedVisitIds: number[];
  legs: TravelLeg[];
  /** The places the start and end legs are measured from and to (the route's while it still says them). */
  startPlace: Place | null;
  endPlace: Place | null;
}

const arrivalOf = (visit: LegVisit) => (visit.arriveAt ?? visit.startsAt).getTime();
const visitName = (visit: LegVisit) => visit.clientName || `Visit ${visit.id}`;

/** At most this many practitioner-days ask the travel provider at once (a road server is asked over the network). */
const CONCURRENT_DAYS = 8;

/** Every leg of each practitioner's day between startDate and endDate (days in the business's time zone). */
export async function travelDays(db: Db, provider: TravelProvider, businessAccountId: number, query: DaysQuery): Promise<TravelDay[]> {
  const [visits, routes] = await Promise.all([visitsOfDays(db, businessAccountId, query), routesOfDays(db, businessAccountId, query)]);
  const practitionerIds = [...new Set(visits.map((visit) => visit.practitionerId))];
  // Names and places do not depend on the day: read once.
  const practitioners = new Map((await loadPractitionerDays(db, businessAccountId, practitionerIds, query.startDate)).map((day) => [day.practitionerId, day]));
  const routeOf = new Map(routes.map((route) => [`${route.practitionerId} ${route.day}`, route]));
  const byDay = new Map<string, LegVisit[]>();
  for (const visit of visits) {
    const key = `${visit.practitionerId} ${visit.day}`;
    if (query.onlyDays && !query.onlyDays.has(key)) continue;
    const own = byDay.get(key);
    if (own) own.push(visit);
    else byDay.set(key, [visit]);
  }
  const days = [...byDay.entries()];
  const answered: TravelDay[] = new Array(days.length);
  let next = 0;
  const work = async () => {
    while (next < days.length) {
      const index = next++;
      const [key, own] = days[index];
      const practitioner = practitioners.get(own[0].practitionerId);
      answered[index] = await legsOfDay(own, routeOf.get(key) ?? null, {
        name: practitioner?.name ?? `Practitioner ${own[0].practitionerId}`,
        startPlace: practitioner?.startPlace ?? null,
        endPlace: practitioner?.endPlace ?? null,
      }, (points) => provider.matrix(points));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_DAYS, days.length) }, work));
  return answered.sort((a, b) => a.practitionerName.localeCompare(b.practitionerName) || a.practitionerId - b.practitionerId || a.day.localeCompare(b.day));
}

type Point = { lat: number; lng: number };

/** One practitioner-day's legs (its visits in any order), from its route where the route says them. */
export async function legsOfDay(
  visits: readonly LegVisit[], route: LegRoute | null,
  practitioner: { name: string; startPlace: Place | null; endPlace: Place | null },
  matrixOf: (points: Point[]) => Promise<TravelMatrix>,
): Promise<TravelDay> {
  const ordered = [...visits].sort((a, b) => arrivalOf(a) - arrivalOf(b) || a.id - b.id);
  const chain = ordered.filter((visit) => visit.lat !== null && visit.lng !== null);
  const stopAt = new Map((route?.stops ?? []).map((stop, index) => [stop.appointment_id, index]));
  const first = chain[0];
  const last = chain.at(-1);
  const fromRouteStart = !!route?.startPlace && !!first && stopAt.get(first.id) === 0;
  const fromRouteEnd = !!route?.endPlace && !!route.returnLeg && !!last && stopAt.get(last.id) === route.stops.length - 1;
  const startPlace = fromRouteStart ? route!.startPlace : practitioner.startPlace;
  const endPlace = fromRouteEnd ? route!.endPlace : practitioner.endPlace;

  // The points estimated legs are measured between: [start place?, ...chain, end place?].
  const points: Point[] = [...(startPlace ? [startPlace] : []), ...chain.map((visit) => ({ lat: visit.lat!, lng: visit.lng! })), ...(endPlace ? [endPlace] : [])];
  const offset = startPlace ? 1 : 0;
  let matrix: TravelMatrix | null = null;
  const estimate = async (from: number, to: number) => {
    matrix ??= await matrixOf(points.map((point) => ({ lat: point.lat, lng: point.lng })));
    return { seconds: Math.round(matrix.durations[from * matrix.size + to]), metres: Math.round(matrix.distances[from * matrix.size + to]), source: 'estimate' as const };
  };

  // Routes keep their legs to the millisecond and millimetre; every leg is answered in whole seconds and metres.
  const routed = (leg: { travel_seconds: number; travel_metres: number }) => ({ seconds: Math.round(leg.travel_seconds), metres: Math.round(leg.travel_metres), source: 'route' as const });
  const legs: TravelLeg[] = [];
  if (first && startPlace) {
    const stop = route?.stops[0];
    const travel = fromRouteStart && stop ? routed(stop) : await estimate(0, offset);
    legs.push({ kind: 'start', fromAppointmentId: null, toAppointmentId: first.id, fromName: startPlace.name, toName: visitName(first), ...travel });
  }
  for (let k = 1; k < chain.length; k++) {
    const [previous, visit] = [chain[k - 1], chain[k]];
    const at = stopAt.get(visit.id);
    const inRoute = at !== undefined && at > 0 && stopAt.get(previous.id) === at - 1;
    const travel = inRoute ? routed(route!.stops[at]) : await estimate(offset + k - 1, offset + k);
    legs.push({ kind: 'between', fromAppointmentId: previous.id, toAppointmentId: visit.id, fromName: visitName(previous), toName: visitName(visit), ...travel });
  }
  if (last && endPlace) {
    const travel = fromRouteEnd ? routed(route!.returnLeg!) : await estimate(offset + chain.length - 1, points.length - 1);
    legs.push({ kind: 'end', fromAppointmentId: last.id, toAppointmentId: null, fromName: visitName(last), toName: endPlace.name, ...travel });
  }
  return {
    practitionerId: ordered[0].practitionerId, practitionerName: practitioner.name, day: ordered[0].day, visits: ordered,
    unlocatedVisitIds: ordered.filter((visit) => visit.lat === null || visit.lng === null).map((visit) => visit.id), legs, startPlace, endPlace,
  };
}

/** Which legs a report counts, in words (each report says it). */
export const LEGS_COUNTED = 'Start place → first visit, visit → next visit, last visit → end place (when the practitioner has a start or end place); from the applied route where it still says the leg, else estimated with the optimiser’s travel model. Visits without a map point are left out of the chain.';
