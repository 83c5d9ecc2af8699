// Moving a visit by hand, in words and rules the appointment modal's Move and "Insert into a route" share: who may
// take the visit (active, delivering its type), who works its day, what a typed day and time become, and what a move
// changed, said once for the toast.
import { Temporal } from 'temporal-polyfill';
import type { Appointment } from '../../api/types';
import { formatDateTime, formatTime, instantAtTimeOnDay, normaliseTimeOfDay, zonedFromInstant } from '../../lib/dates';
import type { PractitionerSettings } from '../../entities/practitioners/api';
import type { VisitMove } from '../../entities/routes/api';

export const MOVE_TIME_FORMAT_MESSAGE = 'Write the start time as HH:mm (24-hour), e.g. 09:30.';
export const MOVE_DAY_MISSING_MESSAGE = 'Choose the day the visit moves to.';
export const MOVE_NOTHING_CHANGED_MESSAGE = 'Choose another practitioner, day or start time first.';
export const LEAVES_ROUTE_NOTE = 'This visit is on an optimised route: moving it takes it off the route, and the route is marked as changed.';
export const CHANGES_ROUTE_NOTE = 'This visit is on an optimised route: inserting it takes it off that route, which is marked as changed, and onto the route of the day it goes to, when that day has one.';

/**
 * Active practitioners known to deliver the appointment type (their qualifications, the server's effective list; a
 * visit without a type: any with known ones). Unknown qualifications are never read as "every type".
 */
export function practitionersForType(practitioners: readonly PractitionerSettings[], appointmentTypeId: number | null | undefined): PractitionerSettings[] {
  return practitioners.filter((practitioner) => {
    const qualified = practitioner.qualified_appointment_type_ids ?? null;
    return practitioner.active && qualified !== null && (appointmentTypeId == null || qualified.includes(appointmentTypeId));
  });
}

/** The practitioners a visit can go to (practitionersForType), with its own practitioner first when not among them. */
export function practitionerChoices(
  practitioners: readonly PractitionerSettings[], appointment: Pick<Appointment, 'practitioner' | 'appointment_type'>,
): { id: number; full_name: string }[] {
  const candidates = practitionersForType(practitioners, appointment.appointment_type?.id);
  const current = appointment.practitioner;
  return candidates.some((practitioner) => practitioner.id === current.id) ? candidates : [{ id: current.id, full_name: current.full_name }, ...candidates];
}

/** Whether the optimiser can place visits in this practitioner's day: a start place and working hours that weekday. */
export function worksOn(practitioner: PractitionerSettings, day: Temporal.PlainDate): boolean {
  return practitioner.routable && practitioner.working_hours[day.dayOfWeek - 1] != null;
}

const sameInstant = (a: string, b: string) => Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b)) === 0;

export interface MoveDraft {
  practitionerId: number;
  day: Temporal.PlainDate | null;
  time: string;
}

export function draftOfVisit(appointment: Pick<Appointment, 'practitioner' | 'starts_at'>, timeZone: string): MoveDraft {
  return { practitionerId: appointment.practitioner.id, day: zonedFromInstant(appointment.starts_at, timeZone).toPlainDate(), time: formatTime(appointment.starts_at, timeZone) };
}

/** The request body for the draft (only what changed), or the problem to show next to the form. */
export function moveOfDraft(appointment: Pick<Appointment, 'practitioner' | 'starts_at'>, draft: MoveDraft, timeZone: string): { move: VisitMove } | { problem: string } {
  if (!draft.day) return { problem: MOVE_DAY_MISSING_MESSAGE };
  const time = normaliseTimeOfDay(draft.time);
  if (!time) return { problem: MOVE_TIME_FORMAT_MESSAGE };
  const move: VisitMove = {};
  if (draft.practitionerId !== appointment.practitioner.id) move.practitioner_id = draft.practitionerId;
  const startsAt = instantAtTimeOnDay(draft.day, time, timeZone);
  if (!sameInstant(startsAt, appointment.starts_at)) move.starts_at = startsAt;
  return Object.keys(move).length > 0 ? { move } : { problem: MOVE_NOTHING_CHANGED_MESSAGE };
}

/** "25 Nov 2026 09:00 → 10:30", the day said once when it stays the same. */
export function startChange(from: string, to: string, timeZone: string): string {
  const [before, after] = [formatDateTime(from, timeZone), formatDateTime(to, timeZone)];
  const sameDay = zonedFromInstant(from, timeZone).toPlainDate().equals(zonedFromInstant(to, timeZone).toPlainDate());
  return `${before} → ${sameDay ? formatTime(to, timeZone) : after}`;
}

type MovedVisit = Pick<Appointment, 'practitioner' | 'starts_at' | 'route_id' | 'client'>;

/** What a move changed, for its toast: the practitioner and/or the start, old → new, and a route left behind. */
export function visitMovedMessage(before: MovedVisit | undefined, saved: MovedVisit, timeZone: string): string {
  const who = saved.client ? ` with ${saved.client.full_name}` : '';
  if (!before) return `Visit${who} moved to ${saved.practitioner.full_name}, ${formatDateTime(saved.starts_at, timeZone)}.`;
  const changes: string[] = [];
  if (before.practitioner.id !== saved.practitioner.id) changes.push(`${before.practitioner.full_name} → ${saved.practitioner.full_name}`);
  if (!sameInstant(before.starts_at, saved.starts_at)) changes.push(startChange(before.starts_at, saved.starts_at, timeZone));
  const leftRoute = before.route_id !== null && saved.route_id === null ? ' It is no longer on its route.' : '';
  return `Visit${who} moved: ${changes.length > 0 ? changes.join('; ') : 'nothing changed'}.${leftRoute}`;
}
