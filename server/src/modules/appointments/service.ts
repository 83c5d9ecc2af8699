// Appointments: the range list, one appointment, its extra details, arrival-time changes and the arrival lock. A PRACTITIONER sees
// only their associated practitioners' appointments; anything else answers 404, like a missing id.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { practitionerScope, type AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import { practitioners } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, forbidden, invalid, notFound } from '../../http/errors';
import { describeVersions, recordVersion, versionsOf } from '../audit';
import { fixedUntil, fixedVisitMessage, isFixedStart, isFixedVisit, optimizationSettingsOf } from '../optimization-settings';
import { loadRuleBook, lockPartners, refuseHardBreaks, travelProviderFor, writeArrival, writeArrivalLock, type RuleWarning } from '../schedule';
import { ListCache } from '../../db/list-cache';
import { rangeProblem } from '../../lib/day-range';
import {
  findAppointment, listAppointmentsBodyJson, lockAppointment, type AppointmentPage, type AppointmentRangeFilter, type AppointmentScope,
} from './repository';
import { longDate } from '../../lib/long-date';

const scopeOf = (auth: AuthContext): AppointmentScope => ({ businessAccountId: auth.businessAccountId, practitionerIds: practitionerScope(auth) });

/** Checks a yyyy-MM-dd range against the server's one day-range rule. */
export function checkRange(startDate: string, endDate: string): void {
  const problem = rangeProblem(startDate, endDate);
  if (problem) throw invalid(problem);
}

/** The instant of an ISO 8601 timestamp that carries an offset or Z; null for anything else. */
export function parseInstant(text: string): Temporal.Instant | null {
  try {
    return Temporal.Instant.from(text);
  } catch {
    return null;
  }
}

const formatTime = (time: Temporal.ZonedDateTime) => time.toPlainTime().toString({ smallestUnit: 'minute' });

const services = new WeakMap<AppContext, AppointmentsService>();

/** The app's one appointments service, whichever module asks: one list cache per app (LIST_CACHE_MB), not one each. */
export function appointmentsServiceOf(ctx: AppContext): AppointmentsService {
  let service = services.get(ctx);
  if (!service) {
    service = new AppointmentsService(ctx);
    services.set(ctx, service);
  }
  return service;
}

export class AppointmentsService {
  private readonly lists: ListCache;

  constructor(private readonly ctx: AppContext) {
    this.lists = new ListCache(ctx.db, ctx.config.listCacheMb);
  }

  /** The range's appointments (one page of them when asked) as the JSON text of the listAppointments body. */
  async listJson(auth: AuthContext, filter: AppointmentRangeFilter, page?: AppointmentPage): Promise<string> {
    const scope = scopeOf(auth);
    // Only a miss checks the range: a cached answer's range (part of its key) passed when it was rendered.
    return this.lists.through(scope.businessAccountId, [scope.practitionerIds, filter, page ?? null], async () => {
      checkRange(filter.startDate, filter.endDate);
      return listAppointmentsBodyJson(this.ctx.db, scope, filter, page);
    }, auth.lists);
  }

  async get(auth: AuthContext, appointmentId: number): Promise<Schemas['Appointment']> {
    const appointment = await findAppointment(this.ctx.db, scopeOf(auth), appointmentId);
    if (!appointment) throw notFound('Appointment');
    return appointment;
  }

  /**
   * The appointment's change log (oldest first as stored, each change in words); 404 for an appointment the caller
   * may not see. The sync module adds its PMS record and import/export history for the extra details.
   */
  async changeLog(auth: AuthContext, appointmentId: number): Promise<Schemas['AppointmentExtraDetails']['versions']> {
    const { db } = this.ctx;
    if (!(await findAppointment(db, scopeOf(auth), appointmentId))) throw notFound('Appointment');
    const versionRows = await versionsOf(db, auth.businessAccountId, 'Appointment', appointmentId);
    const described = await describeVersions(db, auth.businessAccountId, versionRows);
    return versionRows.map((version, index) => ({
      created_at: version.created_at.toISOString(), event: version.event, whodunnit: version.whodunnit, object_changes: version.object_changes,
      reason: version.reason,
      changes: described[index],
    }));
  }

  /**
   * Sets the arrival time of an appointment that is not part of a route. The arrival must fall on the appointment's
   * own day in the practitioner's time zone, within its booked-time tolerance, and break no other hard rule of the
   * rule book the day does not already break.
   */
  async updateArrivalTime(
    auth: AuthContext, appointmentId: number, arriveAtText: string,
  ): Promise<{ appointment: Schemas['Appointment']; warnings: RuleWarning[] }> {
    const arriveAt = parseInstant(arriveAtText);
    let warnings: RuleWarning[] = [];
    if (!arriveAt) throw invalid('arrive_at must be an ISO 8601 timestamp with a time zone offset, e.g. 2026-11-24T09:00:00+10:00.');
    await this.ctx.db.transaction(async (tx) => {
      const appointment = await lockAppointment(tx, scopeOf(auth), appointmentId);
      if (!appointment) throw notFound('Appointment');
      if (appointment.route_id !== null) {
        throw conflict('This appointment is part of a route, so its arrival time is set by the route. Change it in the route instead.', 'APPOINTMENT_ROUTED');
      }
      if (appointment.cancelled_at) throw conflict('This appointment is cancelled; its arrival time cannot be changed.', 'APPOINTMENT_CANCELLED');
      // Today's started and imminent visits keep their arrival. A past day's arrival stays a record the office may
      // correct (imports and reports read it as such), so only today is held to the rule here.
      const settings = await optimizationSettingsOf(tx, auth.businessAccountId);
      const until = fixedUntil(settings);
      const businessZone = await businessTimeZone(tx, auth.businessAccountId);
      const todayStarts = Temporal.Now.zonedDateTimeISO(businessZone).startOfDay().epochMilliseconds;
      const current = appointment.arrive_at ?? appointment.starts_at;
      const pastDay = current.getTime() < todayStarts;
      // A past day's planned arrival is what the visit's punctuality is judged against: the office corrects it, never
      // the practitioner whose record it is.
      if (pastDay && current.getTime() !== arriveAt.epochMilliseconds && auth.role === 'PRACTITIONER') {
        throw forbidden("Only the office can correct a past day's arrival time: ask a coordinator.", 'PAST_DAY_RECORD');
      }
      const changing = current.getTime() !== arriveAt.epochMilliseconds && !pastDay;
      if (changing && isFixedVisit(appointment, until)) throw invalid(fixedVisitMessage(settings.fixed_before_minutes));
      if (changing && arriveAt.epochMilliseconds <= until) {
        throw invalid(`arrive_at: the arrival cannot be a time that has passed or is within ${settings.fixed_before_minutes} minutes from now.`);
      }
      const [{ time_zone: timeZone }] = await tx.select({ time_zone: practitioners.time_zone }).from(practitioners)
        .where(eq(practitioners.id, appointment.practitioner_id));
      // The booked-time tolerance (the rule book's) around the client's agreed time (ADR 0023), within the appointment's own day.
      const tolerance = (await loadRuleBook(tx, auth.businessAccountId, settings)).toleranceOf(appointment.appointment_type_id);
      const starts = Temporal.Instant.fromEpochMilliseconds(appointment.agreed_starts_at.getTime()).toZonedDateTimeISO(timeZone);
      const dayStart = starts.startOfDay();
      const earliest = Temporal.ZonedDateTime.compare(starts.subtract({ seconds: tolerance }), dayStart) < 0 ? dayStart : starts.subtract({ seconds: tolerance });
      const lastMinute = dayStart.add({ days: 1 }).subtract({ minutes: 1 });
      const latest = Temporal.ZonedDateTime.compare(starts.add({ seconds: tolerance }), lastMinute) > 0 ? lastMinute : starts.add({ seconds: tolerance });
      if (Temporal.Instant.compare(arriveAt, earliest.toInstant()) < 0 || Temporal.Instant.compare(arriveAt, latest.toInstant()) > 0) {
        // Said in words (this message is shown to the user as it is), with the whole allowed window.
        throw invalid(`The arrival time must be between ${formatTime(earliest)} and ${formatTime(latest)} on ${longDate(starts.toPlainDate())}: `
          + `within ${tolerance / 60} minutes of the booked time, on the appointment's day (${timeZone}).`);
      }
      const next = new Date(arriveAt.epochMilliseconds);
      if (appointment.arrive_at?.getTime() === next.getTime()) return;
      // A two-carer visit arrives as one: its partners off a route arrive at the same time (a routed one keeps the
      // route's time, and the check below says the two would no longer arrive together).
      const partners = (await lockPartners(tx, auth.businessAccountId, appointment))
        .filter((partner) => partner.route_id === null && partner.arrive_at?.getTime() !== next.getTime() && !isFixedStart(partner.arrive_at ?? partner.starts_at, until));
      const changed = [appointment, ...partners];
      warnings = await refuseHardBreaks(tx, auth.businessAccountId, changed.map((visit) => ({
        id: visit.id, practitionerId: visit.practitioner_id, startsAt: visit.starts_at, endsAt: visit.ends_at, arriveAt: next,
      })), travelProviderFor(this.ctx.config));
      for (const visit of changed) {
        await writeArrival(tx, visit.id, next);
        await recordVersion(tx, {
          businessAccountId: auth.businessAccountId, itemType: 'Appointment', itemId: visit.id, event: 'update', whodunnit: auth.fullName,
          changes: { arrive_at: [visit.arrive_at, next] },
          reason: pastDay ? "Corrected after the visit's day" : null,
        });
      }
    });
    return { appointment: await this.get(auth, appointmentId), warnings };
  }

  /**
   * "Keep this time": a locked visit keeps its arrival time and practitioner when its day is optimised. Recorded in the
   * change log; a cancelled appointment cannot be locked.
   */
  async setArrivalLock(auth: AuthContext, appointmentId: number, locked: boolean): Promise<Schemas['Appointment']> {
    await this.ctx.db.transaction(async (tx) => {
      const appointment = await lockAppointment(tx, scopeOf(auth), appointmentId);
      if (!appointment) throw notFound('Appointment');
      if (appointment.arrival_locked === locked) return;
      if (appointment.cancelled_at && locked) throw conflict('This appointment is cancelled; its time cannot be kept.', 'APPOINTMENT_CANCELLED');
      await writeArrivalLock(tx, appointmentId, locked);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Appointment', itemId: appointmentId, event: 'update', whodunnit: auth.fullName,
        changes: { arrival_locked: [appointment.arrival_locked, locked] },
      });
    });
    return this.get(auth, appointmentId);
  }
}
