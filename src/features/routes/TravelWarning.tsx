// Travel warnings on every day, routed or not: a visit whose gap after the visit before (the same practitioner's) is
// shorter than the travel between them says 'Not enough travel time (needs N min)', N the travel in whole minutes.
// The day schedule and the one-day list read them as texts by visit (they draw them); the appointment modal says it.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { browserTimeZone } from '../../lib/dates';
import { Icon } from '../../ui/Icon';
import { arrivalOf, isCancelled, type Appointment } from '../appointments';
import type { VisitTravel } from './api';
import { routeQueries } from './queries';

/** The warning of one visit, or null when its gap covers the travel (or the travel is unknown). */
export function travelWarningText(travel: VisitTravel): string | null {
  if (travel.needs_more_seconds <= 0 || travel.travel_seconds_from_previous === null) return null;
  return `Not enough travel time (needs ${Math.ceil(travel.travel_seconds_from_previous / 60)} min)`;
}

/** The gap the visit has, said after the warning in the modal. */
function gapText(travel: VisitTravel): string {
  const gap = Math.round((travel.gap_seconds ?? 0) / 60);
  return gap < 0 ? `it starts ${-gap} min before the visit before ends.` : `${gap} min between the end of the visit before and this arrival.`;
}

/** The day's warnings by visit id (`date` yyyy-MM-dd in the business's zone; null: none asked). */
export function useTravelWarnings(date: string | null): ReadonlyMap<number, string> {
  const { api } = useServices();
  const travel = useQuery({ ...routeQueries.dayTravel(api, date ?? ''), enabled: date !== null });
  return useMemo(() => {
    const warnings = new Map<number, string>();
    for (const visit of travel.data?.appointments ?? []) {
      const text = travelWarningText(visit);
      if (text) warnings.set(visit.appointment_id, text);
    }
    return warnings;
  }, [travel.data]);
}

/** On the appointment modal: the warning in words, when the visit has one. */
export function TravelWarning({ appointment }: { appointment: Appointment }) {
  const { api } = useServices();
  const zone = useAuthSelector(selectUser)?.business_account.time_zone ?? browserTimeZone();
  const day = Temporal.Instant.from(arrivalOf(appointment)).toZonedDateTimeISO(zone).toPlainDate().toString();
  const travel = useQuery({ ...routeQueries.dayTravel(api, day), enabled: !isCancelled(appointment) });
  const own = travel.data?.appointments.find((visit) => visit.appointment_id === appointment.id);
  const text = own && travelWarningText(own);
  if (!own || !text) return null;
  return (
    <div data-testid="travel-warning" className="flex items-start gap-2 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
      <Icon name="warning" className="size-5 shrink-0" />
      <p>
        <span className="font-medium">{text}</span>: {gapText(own)}
      </p>
    </div>
  );
}
