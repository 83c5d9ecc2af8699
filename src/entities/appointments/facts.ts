// Facts about an appointment that the list, the schedule and the modal all show the same way.
import { isOutsideAvailability } from '../../lib/availability';
import { browserTimeZone, formatTime } from '../../lib/dates';
import { STATE_LABELS } from '../../machines/visitSteps';
import type { Appointment, AppointmentSummary, VisitPartner } from './api';

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

/**
 * The other half of a double-handed (two-carer) visit: the client's booking at the same time with another
 * practitioner, as the server pairs them (its rule book's pairing); null for a visit with one practitioner.
 */
export function partnerOf(appointment: { partner?: VisitPartner | null }): VisitPartner | null {
  return appointment.partner ?? null;
}

/** What both halves of a two-carer visit share (the map draws them as one pin); undefined for a visit with one practitioner. */
export const twoCarerKey = (id: number, partner: VisitPartner | null | undefined) =>
  (partner ? `two-carer:${Math.min(id, partner.appointment_id)}` : undefined);

/** "with Amelia Brown": what each half of a two-carer visit says of the other. */
export const withPartnerText = (partner: VisitPartner) => `with ${partner.practitioner_name}`;

/** "Two-carer visit with Amelia Brown": the words for screen readers and hints. */
export const twoCarerText = (partner: VisitPartner) => `Two-carer visit ${withPartnerText(partner)}`;

export function isCancelled(appointment: Pick<Appointment, 'status'>): boolean {
  return appointment.status === 'CANCELLED';
}

export function statusLabel(appointment: Pick<Appointment, 'status'>): string {
  return isCancelled(appointment) ? 'Cancelled' : 'Booked';
}

const STATE_TIME = { on_my_way: 'on_my_way_at', arrived: 'arrived_at', done: 'done_at', could_not_attend: 'could_not_attend_at' } as const;

/**
 * The status the desk reads in a list: Cancelled, Booked while the visit has not started, else where the visit is and
 * since when ("Arrived 09:02").
 */
export function visitStatusLabel(appointment: Pick<Appointment, 'status' | 'visit_state' | 'visit'>, timeZone: string): string {
  const state = appointment.visit_state;
  // A list answered before visits had states (a cached page) reads as not started.
  if (isCancelled(appointment) || state === 'not_started' || !(state in STATE_TIME)) return statusLabel(appointment);
  const at = appointment.visit?.[STATE_TIME[state]];
  return at ? `${STATE_LABELS[state]} ${formatTime(at, timeZone)}` : STATE_LABELS[state];
}
