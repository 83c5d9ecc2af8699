// Facts about an appointment that the list, the schedule and the modal all show the same way.
import { isOutsideAvailability } from '../../lib/availability';
import { browserTimeZone } from '../../lib/dates';
import type { Appointment, AppointmentSummary } from './api';

/** What the facts read; an Appointment and an AppointmentSummary both have it. */
type Visit = Pick<AppointmentSummary, 'starts_at' | 'arrive_at' | 'status' | 'client'> & { practitioner: { time_zone?: string | null } };

export const OUTSIDE_AVAILABILITY_TEXT = "Outside client's availability";

/**
 * The zone a visit's times are shown in: the business's, the one the dashboard and the sidebar name, whatever the
 * practitioner's own zone (their working hours are kept in it); the browser's only while no business is known.
 */
export function appointmentTimeZone(businessTimeZone?: string | null): string {
  return businessTimeZone || browserTimeZone();
}

export function arrivalOf(appointment: Pick<Visit, 'arrive_at' | 'starts_at'>): string {
  return appointment.arrive_at ?? appointment.starts_at;
}

export function isAppointmentOutsideAvailability(appointment: Visit, businessTimeZone?: string | null): boolean {
  if (!appointment.client) return false;
  return isOutsideAvailability({
    arriveAt: arrivalOf(appointment),
    availability: appointment.client.availability,
    clientTimeZone: appointment.client.time_zone,
    practitionerTimeZone: appointment.practitioner.time_zone || businessTimeZone || browserTimeZone(),
  });
}

export function isCancelled(appointment: Pick<Appointment, 'status'>): boolean {
  return appointment.status === 'CANCELLED';
}

export function statusLabel(appointment: Pick<Appointment, 'status'>): string {
  return isCancelled(appointment) ? 'Cancelled' : 'Booked';
}
