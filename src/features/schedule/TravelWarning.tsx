// Travel warnings on every day, routed or not: two visits of one practitioner that overlap say so ('Overlaps Margaret
// Jones's visit 10:00–10:45'); a visit whose gap after the visit before (the same practitioner's) is shorter than the
// travel between them says 'Not enough travel time (needs N min)', N the travel in whole minutes.
// The day schedule and the one-day list read them as texts by visit (they draw them); the appointment modal says it.
// The same answer says which visits are booked while their practitioner is on leave (the schedule marks them).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { browserTimeZone, formatTime } from '../../lib/dates';
import { Icon } from '../../ui/Icon';
import { appointmentQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone, arrivalOf, isCancelled } from '../../entities/appointments/facts';
import type { Appointment, AppointmentSummary } from '../../entities/appointments/api';
import type { VisitTravel } from '../../entities/routes/api';
import { routeQueries } from '../../entities/routes/queries';

/** The warning of one visit, or null when its gap covers the travel (or the travel is unknown). */
export function travelWarningText(travel: VisitTravel): string | null {
  if (travel.needs_more_seconds <= 0 || travel.travel_seconds_from_previous === null) return null;
  return `Not enough travel time (needs ${Math.ceil(travel.travel_seconds_from_previous / 60)} min)`;
}

/** What an overlap names of the other visit. */
type OtherVisit = Pick<AppointmentSummary, 'starts_at' | 'ends_at' | 'arrive_at' | 'client'> & { practitioner: { time_zone?: string | null } };

/** "Overlaps Margaret Jones's visit 10:00–10:45": the other visit from its arrival to its end (its booked length later). */
export function overlapText(other: OtherVisit | undefined, businessTimeZone?: string | null): string {
  if (!other) return 'Overlaps another visit';
  const zone = appointmentTimeZone(businessTimeZone);
  const arrival = arrivalOf(other);
  const end = new Date(Date.parse(arrival) + Date.parse(other.ends_at) - Date.parse(other.starts_at)).toISOString();
  const whose = other.client ? `${other.client.full_name}'s visit` : 'a visit';
  return `Overlaps ${whose} ${formatTime(arrival, zone)}–${formatTime(end, zone)}`;
}

/**
 * Each visit's warning: two visits of one practitioner that overlap both say so, naming the other; otherwise a visit
 * whose gap does not cover the travel from the one before says it. `visitOf` finds the other visit (undefined: unknown).
 */
export function dayWarnings(travel: readonly VisitTravel[], visitOf: (id: number) => OtherVisit | undefined, businessTimeZone?: string | null): Map<number, string> {
  const warnings = new Map<number, string>();
  for (const visit of travel) {
    const previous = visit.previous_appointment_id;
    if (previous !== null && visit.gap_seconds !== null && visit.gap_seconds < 0) {
      warnings.set(visit.appointment_id, overlapText(visitOf(previous), businessTimeZone));
      if (!warnings.get(previous)?.startsWith('Overlaps')) warnings.set(previous, overlapText(visitOf(visit.appointment_id), businessTimeZone));
      continue;
    }
    const text = travelWarningText(visit);
    if (text && !warnings.has(visit.appointment_id)) warnings.set(visit.appointment_id, text);
  }
  return warnings;
}

/** The gap the visit has, said after the warning in the modal. */
function gapText(travel: VisitTravel): string {
  const gap = Math.round((travel.gap_seconds ?? 0) / 60);
  return gap < 0 ? `it starts ${-gap} min before the visit before ends.` : `${gap} min between the end of the visit before and this arrival.`;
}

/** The day's warnings by visit id (`date` yyyy-MM-dd in the business's zone; null: none asked), naming visits among `visits`. */
export function useTravelWarnings(date: string | null, visits: readonly AppointmentSummary[]): ReadonlyMap<number, string> {
  const { api } = useServices();
  const businessTimeZone = useAuthSelector(selectUser)?.business_account.time_zone;
  const travel = useQuery({ ...routeQueries.dayTravel(api, date ?? ''), enabled: date !== null });
  return useMemo(() => {
    const byId = new Map(visits.map((visit) => [visit.id, visit]));
    return dayWarnings(travel.data?.appointments ?? [], (id) => byId.get(id), businessTimeZone);
  }, [travel.data, visits, businessTimeZone]);
}

/** The day's visits booked while their practitioner is on leave (`date` yyyy-MM-dd in the business's zone; null: none asked). */
export function useVisitsOnLeave(date: string | null): ReadonlySet<number> {
  const { api } = useServices();
  const travel = useQuery({ ...routeQueries.dayTravel(api, date ?? ''), enabled: date !== null });
  return useMemo(() => new Set((travel.data?.appointments ?? []).filter((visit) => visit.on_leave).map((visit) => visit.appointment_id)), [travel.data]);
}

/** On the appointment modal: the warning in words, when the visit has one. */
export function TravelWarning({ appointment }: { appointment: Appointment }) {
  const { api } = useServices();
  const zone = useAuthSelector(selectUser)?.business_account.time_zone ?? browserTimeZone();
  const day = Temporal.Instant.from(arrivalOf(appointment)).toZonedDateTimeISO(zone).toPlainDate().toString();
  const travel = useQuery({ ...routeQueries.dayTravel(api, day), enabled: !isCancelled(appointment) });
  const own = travel.data?.appointments.find((visit) => visit.appointment_id === appointment.id);
  const next = travel.data?.appointments.find((visit) => visit.previous_appointment_id === appointment.id);
  // The visit it overlaps, if any: the one before, else the one after.
  const overlapping = own && own.gap_seconds !== null && own.gap_seconds < 0 ? own.previous_appointment_id
    : next && next.gap_seconds !== null && next.gap_seconds < 0 ? next.appointment_id : null;
  const other = useQuery({ ...appointmentQueries.detail(api, overlapping ?? 0), enabled: overlapping !== null });
  if (!own) return null;
  const text = overlapping !== null ? (other.data ? overlapText(other.data, zone) : null) : travelWarningText(own);
  if (!text) return null;
  return (
    <div data-testid="travel-warning" className="flex items-start gap-2 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
      <Icon name="warning" className="size-5 shrink-0" />
      <p>
        <span className="font-medium">{text}</span>
        {overlapping === null && <>: {gapText(own)}</>}
      </p>
    </div>
  );
}
