// One day per practitioner as the maps and the run sheet show it: the visits in visiting order with their arrival
// times, the travel legs between them when an applied route knows them, and the route's start and end places. A day
// without a route is the visits in arrival order. Pure, so it is tested without rendering.
import { arrivalOf, isCancelled, type AppointmentSummary } from '../appointments';
import type { MapRoute } from '../../ui/map/mapTypes';
import { hasCoordinates } from '../../ui/map/mapTypes';
import type { Route, RoutePlace } from './api';

export interface Leg {
  seconds: number;
  metres: number;
}

export interface PlanStop {
  appointment: AppointmentSummary;
  /** When the practitioner is told to arrive (arrive_at, else the start). */
  arriveAt: string;
  /** The travel from the previous stop, or from the start place for the first; null when unknown. */
  leg: Leg | null;
}

export interface PractitionerPlan {
  practitionerId: number;
  name: string;
  color: string;
  stops: PlanStop[];
  start: RoutePlace | null;
  end: RoutePlace | null;
  /** From the last stop to the end place. */
  returnLeg: Leg | null;
  /** The applied route the order and legs come from; null when the day has none for this practitioner. */
  route: Route | null;
}

/** Practitioners always have a colour in responses; this is for one that somehow has none. */
const FALLBACK_COLOR = '#0284c7';

const byArrival = (a: PlanStop, b: PlanStop) => Date.parse(a.arriveAt) - Date.parse(b.arriveAt) || a.appointment.id - b.appointment.id;

/**
 * The plans of the practitioners with visits among `appointments` (cancelled ones left out), by name, each in arrival
 * order. A route's leg is kept only where the visit before it is still the route's (a visit added or moved since the
 * route was applied leaves the legs around it unknown).
 */
export function dayPlans(appointments: readonly AppointmentSummary[], routes: readonly Route[]): PractitionerPlan[] {
  const byPractitioner = new Map<number, AppointmentSummary[]>();
  for (const appointment of appointments) {
    if (isCancelled(appointment)) continue;
    byPractitioner.set(appointment.practitioner.id, [...(byPractitioner.get(appointment.practitioner.id) ?? []), appointment]);
  }
  const plans = [...byPractitioner.entries()].map(([practitionerId, visits]): PractitionerPlan => {
    const route = routes.find((candidate) => candidate.practitioner_id === practitionerId) ?? null;
    const routeStops = new Map((route?.stops ?? []).map((stop, index) => [stop.appointment_id, { stop, index }]));
    // An applied route's order is its arrival times' order, so one order serves routed and unrouted visits.
    const stops = visits.map((appointment): PlanStop => ({ appointment, arriveAt: arrivalOf(appointment), leg: null })).sort(byArrival);
    stops.forEach((planStop, position) => {
      const routed = routeStops.get(planStop.appointment.id);
      if (!routed) return;
      const previousInPlan = position === 0 ? null : stops[position - 1].appointment.id;
      const previousInRoute = routed.index === 0 ? null : route!.stops[routed.index - 1].appointment_id;
      if (previousInPlan === previousInRoute) planStop.leg = { seconds: routed.stop.travel_seconds, metres: routed.stop.travel_metres };
    });
    const lastIsRoutesLast = route !== null && route.stops.length > 0 && stops.at(-1)?.appointment.id === route.stops.at(-1)!.appointment_id;
    const first = visits[0];
    return {
      practitionerId,
      name: route?.practitioner_name ?? first.practitioner.full_name,
      color: route?.color ?? first.practitioner.color ?? FALLBACK_COLOR,
      stops,
      start: route?.start_place ?? null,
      end: route?.end_place ?? null,
      returnLeg: lastIsRoutesLast && route!.return_leg ? { seconds: route!.return_leg.travel_seconds, metres: route!.return_leg.travel_metres } : null,
      route,
    };
  });
  return plans.sort((a, b) => a.name.localeCompare(b.name));
}

/** A plan on the map: its located stops numbered in visiting order, its start and end places. */
export function mapRouteOf(plan: PractitionerPlan): MapRoute {
  const place = (value: RoutePlace | null) => (value ? { lat: value.lat, lng: value.lng, name: value.name } : null);
  return {
    id: plan.practitionerId,
    name: plan.name,
    color: plan.color,
    start: place(plan.start),
    end: place(plan.end),
    stops: plan.stops
      .map((stop) => stop.appointment)
      .filter(hasCoordinates)
      .map((appointment) => ({ id: appointment.id, lat: appointment.lat, lng: appointment.lng, title: appointment.client?.full_name ?? 'Appointment' })),
  };
}

/** "12 min" or "1 h 05 min". */
export function formatMinutes(seconds: number): string {
  const minutes = Math.max(0, Math.round(seconds / 60));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** "4.2 km" (whole km from 10 km), "800 m" under a kilometre. */
export function formatDistance(metres: number): string {
  if (metres < 1000) return `${Math.round(metres / 10) * 10} m`;
  return metres < 10_000 ? `${(metres / 1000).toFixed(1)} km` : `${Math.round(metres / 1000)} km`;
}

/** "12 min · 4.2 km". */
export const formatLeg = (leg: Leg) => `${formatMinutes(leg.seconds)} · ${formatDistance(leg.metres)}`;
