// One day per practitioner as the run sheet, the lanes and the maps show it: the visits in visiting order (arrival)
// with their arrival times, the travel legs between them, where the day starts and ends, when to leave and when the
// practitioner is back — all from the server's reading of the day as it is now (GET /appointments/travel), never from
// a route's stored figures, which a move by hand leaves behind. Pure, so it is tested without rendering.
import { arrivalOf, isCancelled, twoCarerKey } from '../appointments/facts';
import type { AppointmentSummary } from '../appointments/api';
import type { MapRoute } from '../../lib/map/mapTypes';
import { hasCoordinates } from '../../lib/map/mapTypes';
import type { DayTravel, RoutePlace } from './api';

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
  /** When to leave the start place, and when they are back at the end place. */
  departAt: string | null;
  backAt: string | null;
  /** Some leg is the server's estimate, not an applied route's. */
  approximate: boolean;
  /** The day's applied route, and whether its visits or times changed since it was planned. */
  routeId: number | null;
  routeChanged: boolean;
}

/** Practitioners always have a colour in responses; this is for one that somehow has none. */
const FALLBACK_COLOR = '#0284c7';

const byArrival = (a: PlanStop, b: PlanStop) => Date.parse(a.arriveAt) - Date.parse(b.arriveAt) || a.appointment.id - b.appointment.id;
const legOf = (leg: { travel_seconds: number; travel_metres: number } | null): Leg | null => (leg ? { seconds: leg.travel_seconds, metres: leg.travel_metres } : null);

/**
 * The plans of the practitioners with visits among `appointments` (cancelled ones left out), by name, each in arrival
 * order, with the day's travel as the server reads it (`travel`; without it, no legs nor places).
 */
export function dayPlans(appointments: readonly AppointmentSummary[], travel: DayTravel | undefined): PractitionerPlan[] {
  const byPractitioner = new Map<number, AppointmentSummary[]>();
  for (const appointment of appointments) {
    if (isCancelled(appointment)) continue;
    byPractitioner.set(appointment.practitioner.id, [...(byPractitioner.get(appointment.practitioner.id) ?? []), appointment]);
  }
  const visitTravel = new Map((travel?.appointments ?? []).map((visit) => [visit.appointment_id, visit]));
  const plans = [...byPractitioner.entries()].map(([practitionerId, visits]): PractitionerPlan => {
    const day = travel?.practitioners.find((candidate) => candidate.practitioner_id === practitionerId);
    const stops = visits.map((appointment): PlanStop => {
      const own = visitTravel.get(appointment.id);
      const leg = own && own.travel_seconds_from_previous !== null ? { seconds: own.travel_seconds_from_previous, metres: own.travel_metres ?? 0 } : null;
      return { appointment, arriveAt: arrivalOf(appointment), leg };
    }).sort(byArrival);
    const firstLocated = stops.find((stop) => hasCoordinates(stop.appointment));
    if (firstLocated && day?.start_leg) firstLocated.leg = legOf(day.start_leg);
    const first = visits[0];
    return {
      practitionerId,
      name: first.practitioner.full_name,
      color: first.practitioner.color ?? FALLBACK_COLOR,
      stops,
      start: day?.start_place ?? null,
      end: day?.end_place ?? null,
      returnLeg: legOf(day?.end_leg ?? null),
      departAt: day?.depart_at ?? null,
      backAt: day?.back_at ?? null,
      approximate: day?.estimated ?? false,
      routeId: day?.route_id ?? null,
      routeChanged: day?.route_changed ?? false,
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
      .map((appointment) => ({
        id: appointment.id, lat: appointment.lat, lng: appointment.lng, title: appointment.client?.full_name ?? 'Appointment',
        together: twoCarerKey(appointment.id, appointment.partner),
      })),
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
