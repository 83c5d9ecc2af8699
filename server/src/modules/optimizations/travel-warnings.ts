// Travel warnings for a day, routed or not: for each practitioner, their visits in order of arrival, and for each
// visit after the first the travel from the one before — the travel-legs module's leg, the same every report counts:
// the applied route's when it still says it, else the optimiser's travel provider (OSRM_URL when set, else its
// great-circle model) — against the time left between the end of the one before and this arrival. A visit whose gap
// is shorter than the travel gets 'Not enough travel time (needs N min)' in the day schedule.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import type { TravelMatrix } from '../../optimizer';
import { legsOfDay, routesOfDays, type LegRoute, type TravelLeg } from '../travel-legs';
import { checkDay, dayBounds, travelProviderFor } from './day';
import { currentArrival, type DayVisit } from './problem';
import { businessTimeZone, dayVisits } from './repository';

export type VisitTravel = Schemas['VisitTravel'];

/**
 * The travel between consecutive visits of one practitioner's day (visits in any order; answered by arrival): none
 * to the first visit, nor to or from a visit without a map point.
 */
export async function travelOfDay(
  date: string, visits: readonly DayVisit[], route: LegRoute | null, matrixOf: (points: { lat: number; lng: number }[]) => Promise<TravelMatrix>,
): Promise<VisitTravel[]> {
  const ordered = [...visits].sort((a, b) => currentArrival(a).getTime() - currentArrival(b).getTime() || a.id - b.id);
  const { legs } = await legsOfDay(
    ordered.map((visit) => ({ ...visit, day: date, businessLocationId: null })), route, { name: '', startPlace: null, endPlace: null }, matrixOf,
  );
  return travelOfOrderedVisits(ordered, legs);
}

type WarnedVisit = Pick<DayVisit, 'id' | 'practitionerId' | 'startsAt' | 'endsAt' | 'arriveAt'>;
type WarnedLeg = Pick<TravelLeg, 'kind' | 'fromAppointmentId' | 'toAppointmentId' | 'seconds' | 'metres'>;

/**
 * The rule itself, for a day whose legs are known (the travel summary stores it per visit): `ordered` is the day's
 * visits by arrival, then id; `legs` the travel-legs module's legs of that day (its 'between' legs are read).
 */
export function travelOfOrderedVisits(ordered: readonly WarnedVisit[], legs: readonly WarnedLeg[]): VisitTravel[] {
  const legTo = new Map(legs.flatMap((leg) => (leg.kind === 'between' ? [[leg.toAppointmentId!, leg] as const] : [])));
  return ordered.map((visit, k): VisitTravel => {
    const previous = k > 0 ? ordered[k - 1] : null;
    const leg = legTo.get(visit.id);
    const gap = previous
      ? Math.round((currentArrival(visit).getTime() - (currentArrival(previous).getTime() + previous.endsAt.getTime() - previous.startsAt.getTime())) / 1000)
      : null;
    if (!previous || !leg || leg.fromAppointmentId !== previous.id) {
      return {
        appointment_id: visit.id, practitioner_id: visit.practitionerId, previous_appointment_id: previous?.id ?? null,
        travel_seconds_from_previous: null, travel_metres: null, gap_seconds: gap, needs_more_seconds: 0,
      };
    }
    return {
      appointment_id: visit.id, practitioner_id: visit.practitionerId, previous_appointment_id: previous.id,
      travel_seconds_from_previous: leg.seconds, travel_metres: leg.metres, gap_seconds: gap, needs_more_seconds: Math.max(0, leg.seconds - gap!),
    };
  });
}

/** Every visible practitioner's day (a PRACTITIONER: their own), or those of `practitionerIds`. */
export async function travelWarnings(ctx: AppContext, auth: AuthContext, date: string, practitionerIds?: number[]) {
  checkDay(date);
  const { businessAccountId } = auth;
  const scope = practitionerScope(auth);
  const wanted = practitionerIds?.length ? (scope ? practitionerIds.filter((id) => scope.includes(id)) : practitionerIds) : scope;
  const [visits, routes] = await Promise.all([
    businessTimeZone(ctx.db, businessAccountId).then((timeZone) => dayVisits(ctx.db, businessAccountId, wanted, dayBounds(date, timeZone))),
    routesOfDays(ctx.db, businessAccountId, { startDate: date, endDate: date, practitionerIds: wanted ?? [] }),
  ]);
  const routeOf = new Map(routes.map((route) => [route.practitionerId, route]));
  const provider = travelProviderFor(ctx.config);
  const byPractitioner = new Map<number, DayVisit[]>();
  for (const visit of visits) byPractitioner.set(visit.practitionerId, [...(byPractitioner.get(visit.practitionerId) ?? []), visit]);
  const days = await Promise.all([...byPractitioner.entries()].map(([id, own]) => travelOfDay(date, own, routeOf.get(id) ?? null, (points) => provider.matrix(points))));
  return { date, travel: provider.name, appointments: days.flat() };
}
