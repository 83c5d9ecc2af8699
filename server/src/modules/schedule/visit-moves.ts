// Moving one visit by hand to another practitioner (one who delivers its type) or another time, and — "Insert into a
// route" applied (into_route) — into the route of the day it reaches. The cheapest place for it is the optimizations
// module's to find (its insertion search); the move itself is the schedule's, the writer of visits and routes.
//
// A moved visit leaves its route (its stop is dropped and the route is marked stale, its figures are not recomputed)
// unless it is inserted into the route of the day it reaches, and the route of the day it reaches, if any, is marked
// stale too: both no longer describe their day until it is optimised again. The travel warnings are computed when
// read, so they show the new day at once. The move is in the change log ("Moved by {name}") and exported like an
// optimised change (the export compares times and practitioner with what the PMS last had).
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../../auth/access';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { EARLIEST_DATE, LATEST_DATE } from '../../lib/day-range';
import type { DbOrTx, Tx } from '../../db/client';
import { listAppointmentTypes } from '../appointment-types';
import { recordVersion, type ObjectChanges } from '../audit';
import { businessTimeZone } from '../../db/business-time-zone';
import { fixedTimeMessage, fixedUntil, fixedVisitMessage, isFixedStart, isFixedVisit, optimizationSettingsOf } from '../optimization-settings';
import { loadPractitionerDays } from '../practitioners';
import { clearAppointmentRoute, lockPartners, lockVisitRow, moveAppointment, updateRoutedVisits, type VisitMove } from './appointment-writes';
import { dayOf } from './day-model';
import { findVisit } from './day-visits';
import { refuseHardBreaks, type RuleWarning } from './edit-check';
import { dropStopFromRoute, listRoutesOfDay, replaceRouteStops, type RouteRow } from './routes-repository';
import { markRoutesStale } from './routes-service';
import { travelProviderFor } from './travel-provider';

export interface MoveRequest { practitioner_id?: number; starts_at?: string; into_route?: boolean }

/** How a move is made: inside the caller's transaction (a reschedule writes its PMS write with it) and why, for the change log. */
export interface MoveOptions { tx?: Tx; reason?: string }

export function parseStart(text: string): Date {
  try {
    return new Date(Temporal.Instant.from(text).epochMilliseconds);
  } catch {
    throw invalid('starts_at must be an ISO 8601 timestamp with a time zone offset, e.g. 2026-11-24T09:00:00+10:00.');
  }
}

/**
 * Moves a visit by hand to another practitioner and/or start time (its length kept, its arrival = the new start), in
 * one transaction with its change-log entry. 404 for an appointment or practitioner that is not the business's; 422
 * naming the field for a practitioner who does not deliver the visit's type or whose qualifications are unknown, or is inactive,
 * or a start that is not a time; 409 for a cancelled visit.
 */
export async function moveVisit(
  ctx: AppContext, auth: AuthContext, appointmentId: number, body: MoveRequest, options: MoveOptions = {},
): Promise<RuleWarning[]> {
  const business = auth.businessAccountId;
  const newStart = body.starts_at === undefined ? undefined : parseStart(body.starts_at);
  const inTransaction = <T>(work: (tx: Tx) => Promise<T>) => (options.tx ? work(options.tx) : ctx.db.transaction(work));
  return inTransaction(async (tx): Promise<RuleWarning[]> => {
    const appointment = await lockVisitRow(tx, business, appointmentId);
    if (!appointment) throw notFound('Appointment');
    if (appointment.cancelled_at) throw conflict('This appointment is cancelled; it cannot be moved.', 'APPOINTMENT_CANCELLED');
    const timeZone = await businessTimeZone(tx, business);
    const startsAt = newStart ?? appointment.starts_at;
    const date = dayOf(startsAt, timeZone);
    if (date < EARLIEST_DATE || date > LATEST_DATE) throw invalid(`starts_at must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${date}).`);

    const practitionerId = body.practitioner_id ?? appointment.practitioner_id;
    let practitionerName: string | undefined;
    if (practitionerId !== appointment.practitioner_id) {
      const [practitioner] = await loadPractitionerDays(tx, business, [practitionerId], date);
      if (!practitioner) throw notFound('Practitioner');
      practitionerName = practitioner.name;
      await refuseUnqualified(tx, auth, practitioner, appointment.appointment_type_id);
    }

    if (practitionerId !== appointment.practitioner_id || body.into_route) await refuseExcluded(tx, business, appointmentId, practitionerId, date);

    // Only the future moves: a started visit stays, and nothing moves into the past or the next few minutes.
    const settings = await optimizationSettingsOf(tx, business);
    const until = fixedUntil(settings);
    const moving = practitionerId !== appointment.practitioner_id || (newStart !== undefined && newStart.getTime() !== (appointment.arrive_at ?? appointment.starts_at).getTime());
    if (moving && isFixedVisit(appointment, until)) throw invalid(fixedVisitMessage(settings.fixed_before_minutes));
    if (newStart !== undefined && moving && isFixedStart(newStart, until)) throw invalid(fixedTimeMessage(settings.fixed_before_minutes));

    const length = appointment.ends_at.getTime() - appointment.starts_at.getTime();
    const next = {
      practitioner_id: practitionerId,
      starts_at: startsAt,
      ends_at: new Date(startsAt.getTime() + length),
      arrive_at: newStart ?? appointment.arrive_at,
      // A new time set by hand is agreed with the client (ADR 0023): the tolerance is measured from it from now on.
      agreed_starts_at: newStart ?? appointment.agreed_starts_at,
    };
    const changes = changesOfMove(appointment, next);
    const moves = Object.keys(changes).length > 0;
    // A two-carer visit moves as one: a new time takes its partner (the client's booking at the same start with
    // another practitioner) to the same arrival, with its own practitioner, and both are checked together.
    const retimed = next.starts_at.getTime() !== appointment.starts_at.getTime() || next.arrive_at?.getTime() !== appointment.arrive_at?.getTime();
    const partners = (retimed ? await lockPartners(tx, business, appointment) : []).map((partner) => {
      const partnerNext: VisitMove = {
        practitioner_id: partner.practitioner_id, starts_at: next.starts_at,
        ends_at: new Date(next.starts_at.getTime() + partner.ends_at.getTime() - partner.starts_at.getTime()), arrive_at: next.arrive_at,
        agreed_starts_at: newStart ?? partner.agreed_starts_at,
      };
      return { row: partner, next: partnerNext, changes: changesOfMove(partner, partnerNext) };
    }).filter((partner) => Object.keys(partner.changes).length > 0);
    const startedPartner = partners.find(({ row }) => isFixedStart(row.arrive_at ?? row.starts_at, until));
    if (startedPartner) {
      throw invalid(`This is a two-carer visit with ${startedPartner.row.practitionerName}, whose visit has started (or starts within ${settings.fixed_before_minutes} minutes): both keep their time.`);
    }
    const warnings = !moves ? [] : await refuseHardBreaks(tx, business, [
        { id: appointmentId, practitionerName, practitionerId, startsAt: next.starts_at, endsAt: next.ends_at, arriveAt: next.arrive_at, agreedStartsAt: next.agreed_starts_at },
        ...partners.map(({ row, next: partnerNext }) => ({
          id: row.id, practitionerId: row.practitioner_id, startsAt: partnerNext.starts_at, endsAt: partnerNext.ends_at, arriveAt: partnerNext.arrive_at,
          agreedStartsAt: partnerNext.agreed_starts_at,
        })),
      ], travelProviderFor(ctx.config));
    // A visit already on a route stays there when nothing moves; one off a route may still be inserted into one.
    if (!moves && (!body.into_route || appointment.route_id !== null)) return warnings;
    const write = async (row: { id: number; practitioner_id: number; starts_at: Date; route_id: number | null }, to: VisitMove, rowChanges: ObjectChanges, moved: boolean) => {
      if (moved && row.route_id !== null) {
        await clearAppointmentRoute(tx, business, row.id);
        await dropStopFromRoute(tx, business, row.id, row.route_id);
        rowChanges.route_id = [row.route_id, null];
      }
      await moveAppointment(tx, business, row.id, to);
      await markRoutesStale(tx, business, [
        { practitionerId: row.practitioner_id, at: row.starts_at }, { practitionerId: to.practitioner_id, at: to.starts_at },
      ]);
      if (body.into_route) {
        const [route] = await listRoutesOfDay(tx, business, date, [to.practitioner_id]);
        if (route) {
          await joinRoute(ctx, tx, business, route, { id: row.id, arriveAt: to.arrive_at ?? to.starts_at });
          await updateRoutedVisits(tx, business, [{ id: row.id, routeId: route.id, arriveAt: (to.arrive_at ?? to.starts_at).toISOString(), practitionerId: to.practitioner_id }]);
          rowChanges.route_id = [row.route_id, route.id];
        }
      }
      await recordVersion(tx, {
        businessAccountId: business, itemType: 'Appointment', itemId: row.id, event: 'update', whodunnit: auth.fullName, changes: rowChanges,
        reason: options.reason ?? `Moved by ${auth.fullName}`,
      });
    };
    await write(appointment, next, changes, moves);
    for (const partner of partners) await write(partner.row, partner.next, partner.changes, true);
    return warnings;
  });
}

/**
 * 422 naming the field for a practitioner who is inactive, whose qualifications are unknown or who does not deliver
 * the visit's type (a move, a booking).
 */
export async function refuseUnqualified(
  tx: DbOrTx, auth: AuthContext, practitioner: { name: string; active: boolean; skills: number[] | null }, typeId: number | null,
  given = 'moved to them',
): Promise<void> {
  if (!practitioner.active) throw invalid(`practitioner_id: ${practitioner.name} is inactive; choose an active practitioner.`);
  // Where qualifications are fixed, worded for who asks: only an administrator can open Settings.
  const fix = auth.role === 'ADMIN'
    ? 'set them in Cliniko (then import) or in Settings → Practitioners → Appointment types delivered'
    : 'an administrator sets them in Cliniko or in Settings → Practitioners';
  if (practitioner.skills === null) {
    throw invalid(`practitioner_id: ${practitioner.name}'s qualifications are unknown (no appointment types from Cliniko or Rounds), so no visit is ${given}; ${fix}.`);
  }
  if (typeId === null || !practitioner.skills.includes(typeId)) {
    const type = (typeId === null ? undefined : (await listAppointmentTypes(tx, auth.businessAccountId)).find((row) => row.id === typeId)?.name) ?? 'this type of visit';
    throw invalid(`practitioner_id: ${practitioner.name} does not deliver ${type}; choose a practitioner who does (${fix}).`);
  }
}

/**
 * Puts a visit on the applied route of its practitioner's day, if there is one, in its place by arrival (a booking);
 * answers the route's id (null: none). The route is marked stale by the caller.
 */
export async function joinRouteOfDay(
  ctx: AppContext, tx: DbOrTx, business: number, visit: { id: number; practitionerId: number; date: string; arriveAt: Date },
): Promise<number | null> {
  const [route] = await listRoutesOfDay(tx, business, visit.date, [visit.practitionerId]);
  if (!route) return null;
  await joinRoute(ctx, tx, business, route, { id: visit.id, arriveAt: visit.arriveAt });
  await updateRoutedVisits(tx, business, [{ id: visit.id, routeId: route.id, arriveAt: visit.arriveAt.toISOString(), practitionerId: visit.practitionerId }]);
  return route.id;
}

/** The fields a move changes, before and after. */
function changesOfMove(before: VisitMove, after: VisitMove): ObjectChanges {
  const changes: ObjectChanges = {};
  for (const field of ['practitioner_id', 'starts_at', 'ends_at', 'arrive_at', 'agreed_starts_at'] as const) {
    const [was, now] = [before[field], after[field]];
    if (now === undefined) continue;
    const same = was instanceof Date && now instanceof Date ? was.getTime() === now.getTime() : was === now;
    if (!same) changes[field] = [was, now];
  }
  return changes;
}

/** 409 naming the client and the practitioner when the visit's client asked not to be visited by them. */
async function refuseExcluded(tx: DbOrTx, business: number, appointmentId: number, practitionerId: number, date: string): Promise<void> {
  const visit = await findVisit(tx, business, appointmentId);
  if (!visit?.excludedPractitionerIds?.includes(practitionerId)) return;
  const [practitioner] = await loadPractitionerDays(tx, business, [practitionerId], date);
  throw conflict(excludedMessage(visit.clientName, [practitioner?.name ?? 'this practitioner']), 'PRACTITIONER_EXCLUDED');
}

/** Why a practitioner the client asked not to be visited by is refused (a move, an insertion). */
export const excludedMessage = (clientName: string | null, practitionerNames: string[]) =>
  `${clientName ?? 'The client'} has asked not to be visited by ${practitionerNames.join(', ')}.`;

/**
 * Puts a visit's stop on a route in its place by arrival, with the travel to it from the stop (or start place) before
 * and from it to the stop (or end place) after, which replaces that stop's (or the return) leg.
 */
async function joinRoute(ctx: AppContext, tx: DbOrTx, business: number, route: RouteRow, visit: { id: number; arriveAt: Date }): Promise<void> {
  const stops = route.stops.filter((stop) => stop.appointment_id !== visit.id);
  const position = stops.filter((stop) => Date.parse(stop.arrive_at) <= visit.arriveAt.getTime()).length;
  const pointOf = async (appointmentId: number) => {
    const found = await findVisit(tx, business, appointmentId);
    return found && found.lat !== null && found.lng !== null ? { lat: found.lat, lng: found.lng } : null;
  };
  const before = position > 0 ? await pointOf(stops[position - 1].appointment_id) : route.start_place;
  const after = position < stops.length ? await pointOf(stops[position].appointment_id) : route.end_place;
  const here = await pointOf(visit.id);
  const legBetween = async (from: { lat: number; lng: number } | null, to: { lat: number; lng: number } | null) => {
    if (!from || !to) return { travel_seconds: 0, travel_metres: 0 };
    const matrix = await travelProviderFor(ctx.config).matrix([{ lat: from.lat, lng: from.lng }, { lat: to.lat, lng: to.lng }]);
    return { travel_seconds: Math.round(matrix.durations[1]), travel_metres: Math.round(matrix.distances[1]) };
  };
  stops.splice(position, 0, { appointment_id: visit.id, arrive_at: visit.arriveAt.toISOString(), ...(await legBetween(before, here)) });
  const onward = await legBetween(here, after);
  let returnLeg = route.return_leg;
  if (position + 1 < stops.length) stops[position + 1] = { ...stops[position + 1], ...onward };
  else if (returnLeg) returnLeg = onward;
  await replaceRouteStops(tx, business, route.id, stops, returnLeg);
}
