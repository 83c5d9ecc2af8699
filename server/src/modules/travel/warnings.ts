// Travel warnings for a day, routed or not: for each practitioner, their visits in order of arrival, and for each
// visit after the first the travel from the one before — the leg of ./legs, the same every report counts:
// the applied route's when it still says it, else the optimiser's travel provider (OSRM_URL when set, else its
// great-circle model) — against the time left between the end of the one before and this arrival. A visit whose gap
// is shorter than the travel gets 'Not enough travel time (needs N min)' in the day schedule.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { leaveOverlapping } from '../leave';
import { checkDay, currentArrival, dayBounds, travelProviderFor, type DayVisit } from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { travelDays, type LegVisit, type TravelDay, type TravelLeg } from './legs';
import { routeMarksOfDay, type RouteMark } from './legs-repository';

/** A visit's travel from the one before (the answer adds whether it is booked in its practitioner's leave). */
export type VisitTravel = Omit<Schemas['VisitTravel'], 'on_leave'>;

type WarnedVisit = Pick<DayVisit, 'id' | 'practitionerId' | 'startsAt' | 'endsAt' | 'arriveAt'>;
type WarnedLeg = Pick<TravelLeg, 'kind' | 'fromAppointmentId' | 'toAppointmentId' | 'seconds' | 'metres'>;

/**
 * The rule itself, for a day whose legs are known (the travel summary stores it per visit): `ordered` is the day's
 * visits by arrival, then id; `legs` the legs of that day (./legs) (its 'between' legs are read).
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

type LegOf = Pick<TravelLeg, 'seconds' | 'metres'>;
const routeLeg = (leg: LegOf | undefined) => (leg ? { travel_seconds: leg.seconds, travel_metres: leg.metres } : null);

/**
 * A practitioner's day as it is now, from its visits and legs: where it starts and ends, when to leave (the first
 * located visit's arrival less the leg to it) and when they are back (the last one's end plus the leg home).
 */
export function dayTravelOf(day: TravelDay, route: RouteMark | undefined): Schemas['PractitionerDayTravel'] {
  const start = day.legs.find((leg) => leg.kind === 'start');
  const end = day.legs.find((leg) => leg.kind === 'end');
  const located = day.visits.filter((visit) => visit.lat !== null && visit.lng !== null);
  const first = located[0];
  const last = located.at(-1);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    practitioner_id: day.practitionerId,
    start_place: day.startPlace,
    end_place: day.endPlace,
    start_leg: routeLeg(start),
    end_leg: routeLeg(end),
    depart_at: start && first ? iso(currentArrival(first).getTime() - start.seconds * 1000) : null,
    back_at: end && last ? iso(currentArrival(last).getTime() + last.endsAt.getTime() - last.startsAt.getTime() + end.seconds * 1000) : null,
    estimated: day.legs.some((leg) => leg.source === 'estimate'),
    route_id: route?.id ?? null,
    route_changed: route?.stale ?? false,
  };
}

/**
 * Every visible practitioner's day (a PRACTITIONER: their own), or those of `practitionerIds`: each visit's travel
 * from the one before, and each practitioner's day (the one answer the run sheet, the lanes and the maps read).
 */
export async function travelWarnings(ctx: AppContext, auth: AuthContext, date: string, practitionerIds?: number[]) {
  checkDay(date);
  const { businessAccountId } = auth;
  const scope = practitionerScope(auth);
  const wanted = practitionerIds?.length ? (scope ? practitionerIds.filter((id) => scope.includes(id)) : practitionerIds) : scope;
  const provider = travelProviderFor(ctx.config);
  if (wanted && wanted.length === 0) return { date, travel: provider.name, appointments: [], practitioners: [] };
  const bounds = dayBounds(date, await businessTimeZone(ctx.db, businessAccountId));
  const [days, routes, leave] = await Promise.all([
    travelDays(ctx.db, provider, businessAccountId, { startDate: date, endDate: date, practitionerIds: wanted ?? [] }),
    routeMarksOfDay(ctx.db, businessAccountId, date, wanted ?? []),
    leaveOverlapping(ctx.db, businessAccountId, wanted, bounds.from, bounds.to),
  ]);
  const routeOf = new Map(routes.map((route) => [route.practitionerId, route]));
  // A visit is booked in leave when its booked time overlaps its practitioner's leave.
  const onLeave = (visit: LegVisit) => leave.some((away) => away.practitioner_id === visit.practitionerId
    && away.starts_at < visit.endsAt && away.ends_at > visit.startsAt);
  return {
    date,
    travel: provider.name,
    appointments: days.flatMap((day) => {
      const visitById = new Map(day.visits.map((visit) => [visit.id, visit]));
      return travelOfOrderedVisits(day.visits, day.legs).map((travel) => ({ ...travel, on_leave: onLeave(visitById.get(travel.appointment_id)!) }));
    }),
    practitioners: days.map((day) => dayTravelOf(day, routeOf.get(day.practitionerId))),
  };
}
