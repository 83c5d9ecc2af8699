// Booking, rescheduling and cancelling visits in Rounds, written through to the PMS (ADR 0024). Each change is made in
// Rounds at once, in one transaction with its change-log entry and a pms_writes row (saving) whose job writes it to
// the PMS in the background (write-job.ts): the coordinator sees the visit where it belongs straight away, and a slow
// or failing PMS shows as the write's state, never as a second appointment.
import { and, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import type { DbOrTx, Tx } from '../../db/client';
import { appointments, appointmentTypes, businessLocations, clients } from '../../db/schema';
import { clientPractitionerPreferences } from '../../db/schema-clients';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, HttpError, invalid, notFound } from '../../http/errors';
import { enqueueJob } from '../../jobs/queue';
import { EARLIEST_DATE, LATEST_DATE } from '../../lib/day-range';
import {
  CANCELLATION_REASONS, PmsError, PmsNotFoundError, ProviderAccountUnusableError, type CancellationReasonCode, type PmsAdapter,
} from '../../pms';
import { findAppointment } from '../appointments';
import { recordVersion, type ObjectChanges } from '../audit';
import { fixedUntil, isFixedStart, optimizationSettingsOf } from '../optimization-settings';
import { loadPractitionerDays } from '../practitioners';
import {
  cancelAppointment, clearAppointmentRoute, dayOf, deleteBookedVisit, dropStopFromRoute, excludedMessage, findVisit, insertBookedVisit, joinRouteOfDay,
  lockPartners, lockVisitRow, markRoutesStale, moveVisit, parseStart, refuseHardBreaksOfNewVisit, refuseUnqualified, travelProviderFor, writeVisitFromPms,
  type RuleWarning,
} from '../schedule';
import { adapterForAccount, externalToLocal, findProviderAccount, linkAppointmentToPms, pmsLinkOf } from '../sync';
import { tellClientOfCancellation } from '../reminders';
import { lookUp, saved } from './write-job';
import { findWrite, findWriteByRequest, insertWrite, listOpenWrites, toPmsWriteDto, updateWrite, writesOfVisit, type PmsWriteRow } from './repository';

export type BookVisitInput = BodyOf<'bookVisit'>;
export interface BookedVisitResult { appointment: Schemas['Appointment']; warnings: RuleWarning[] }

/** 409 PMS_NOT_CONNECTED when the business cannot write to its PMS (nothing is booked that could never reach it). */
export async function refuseWithoutPms(db: DbOrTx, businessAccountId: number): Promise<void> {
  const account = await findProviderAccount(db, businessAccountId);
  if (!account || account.status === 'DISCONNECTED' || !account.api_key_encrypted) {
    throw conflict('Cliniko is not connected, so Rounds cannot book visits in it. An admin can connect it in Settings → Provider account.', 'PMS_NOT_CONNECTED');
  }
}

/** Queues the job that writes one pms_writes row to the PMS (write-job.ts). */
export async function queueWrite(tx: DbOrTx, write: PmsWriteRow, createdBy: { userId: number | null; name: string | null }): Promise<void> {
  await enqueueJob(tx, {
    businessAccountId: write.business_account_id, kind: 'PMS_WRITE', maxAttempts: WRITE_ATTEMPTS, params: { pms_write_id: write.id },
    createdByUserId: createdBy.userId, createdByName: createdBy.name,
  });
}

/** How often a write is tried (the worker retries an unanswered one with its backoff) before it shows as failed. */
export const WRITE_ATTEMPTS = 4;

const answered = async (tx: DbOrTx, auth: AuthContext, id: number) => {
  const appointment = await findAppointment(tx, { businessAccountId: auth.businessAccountId, practitionerIds: null }, id);
  if (!appointment) throw notFound('Appointment');
  return appointment;
};

/**
 * Books a visit (POST /visits; also the care module's bookings): see the contract's bookVisit. Inside `tx` when given
 * (several visits booked in one transaction: the caller's), else in a transaction of its own.
 */
export async function bookVisit(
  ctx: AppContext, auth: AuthContext, input: BookVisitInput, tx?: Tx, options: BookingOptions = {},
): Promise<BookedVisitResult> {
  const startsAt = parseStart(input.starts_at);
  const book = async (within: Tx) => {
    await refuseWithoutPms(within, auth.businessAccountId);
    return bookIn(ctx, within, auth, input, startsAt, options);
  };
  return tx ? book(tx) : ctx.db.transaction(book);
}

/**
 * partnerFollows: the first of a two-carer pair, whose partner the caller books next in the same `tx` (a type that
 * needs two practitioners is not refused for having one yet; the partner's booking checks the pair).
 */
export interface BookingOptions { partnerFollows?: boolean }

async function bookIn(ctx: AppContext, tx: Tx, auth: AuthContext, input: BookVisitInput, startsAt: Date, options: BookingOptions = {}): Promise<BookedVisitResult> {
  const business = auth.businessAccountId;
  if (input.request_id) {
    // Serialises two copies of one request: the second waits and then finds the first's booking.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`rounds:booking:${business}:${input.request_id}`}))`);
    const earlier = await findWriteByRequest(tx, business, input.request_id);
    if (earlier?.appointment_id) return { appointment: await answered(tx, auth, earlier.appointment_id), warnings: [] };
    if (earlier) throw conflict('This booking was discarded; book the visit again (a new request).', 'BOOKING_DISCARDED');
  }
  const [client] = await tx.select().from(clients).where(and(eq(clients.business_account_id, business), eq(clients.id, input.client_id)));
  if (!client) throw notFound('Client');
  const [type] = await tx.select().from(appointmentTypes).where(and(eq(appointmentTypes.business_account_id, business), eq(appointmentTypes.id, input.appointment_type_id)));
  if (!type) throw notFound('Appointment type');
  // Left out: the business's first location the PMS has (Cliniko books every appointment at one), else its first.
  const inPms = new Set((await externalToLocal(tx, business, 'BusinessLocation')).values());
  const locations = await tx.select({ id: businessLocations.id }).from(businessLocations)
    .where(and(eq(businessLocations.business_account_id, business), input.business_location_id === undefined ? undefined : eq(businessLocations.id, input.business_location_id)))
    .orderBy(businessLocations.id);
  if (input.business_location_id !== undefined && locations.length === 0) throw notFound('Business location');
  const location = locations.find((row) => inPms.has(row.id)) ?? locations[0];

  const timeZone = await businessTimeZone(tx, business);
  const date = dayOf(startsAt, timeZone);
  if (date < EARLIEST_DATE || date > LATEST_DATE) throw invalid(`starts_at must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${date}).`);
  const [practitioner] = await loadPractitionerDays(tx, business, [input.practitioner_id], date);
  if (!practitioner) throw notFound('Practitioner');
  const clientName = `${client.first_name} ${client.last_name}`.trim();
  if (client.lat === null || client.lng === null) {
    throw invalid(`client_id: ${clientName} has no map position (no address Rounds could place); add their address first.`);
  }
  await refuseUnqualified(tx, auth, practitioner, type.id, 'booked with them');
  const excluded = await tx.select({ id: clientPractitionerPreferences.practitioner_id }).from(clientPractitionerPreferences)
    .where(and(eq(clientPractitionerPreferences.client_id, client.id), eq(clientPractitionerPreferences.practitioner_id, input.practitioner_id),
      eq(clientPractitionerPreferences.kind, 'excluded')));
  if (excluded.length > 0) throw conflict(excludedMessage(clientName, [practitioner.name]), 'PRACTITIONER_EXCLUDED');
  const settings = await optimizationSettingsOf(tx, business);
  if (isFixedStart(startsAt, fixedUntil(settings))) {
    throw invalid(`starts_at: a visit cannot be booked at a time that has passed or is within ${settings.fixed_before_minutes} minutes from now.`);
  }

  await lockBookingDay(tx, business, date);
  const endsAt = new Date(startsAt.getTime() + (input.duration_minutes ?? type.duration) * 60_000);
  const id = await insertBookedVisit(tx, business, {
    client_id: client.id, practitioner_id: input.practitioner_id, appointment_type_id: type.id, business_location_id: location?.id ?? null,
    starts_at: startsAt, ends_at: endsAt, notes: input.notes ?? null,
    address_1: client.address_1, address_2: client.address_2, city: client.city, state: client.state, post_code: client.post_code, country: client.country,
    lat: client.lat, lng: client.lng,
  });
  const warnings = await refuseHardBreaksOfNewVisit(tx, business, id, travelProviderFor(ctx.config), options);
  const routeId = await joinRouteOfDay(ctx, tx, business, { id, practitionerId: input.practitioner_id, date, arriveAt: startsAt });
  await markRoutesStale(tx, business, [{ practitionerId: input.practitioner_id, at: startsAt }]);
  await recordVersion(tx, {
    businessAccountId: business, itemType: 'Appointment', itemId: id, event: 'create', whodunnit: auth.fullName,
    changes: {
      client_id: [null, client.id], practitioner_id: [null, input.practitioner_id], appointment_type_id: [null, type.id], starts_at: [null, startsAt],
      ends_at: [null, endsAt], ...(routeId === null ? {} : { route_id: [null, routeId] }),
    },
    reason: `Booked by ${auth.fullName}`,
  });
  // The open visit this booking fills (input.open_visit_id) is the care module's to close, in this transaction (it
  // calls bookVisit with its own tx).
  const write = await insertWrite(tx, business, {
    appointmentId: id, kind: 'create', requestId: input.request_id ?? null, createdBy: auth.fullName,
    payload: {
      client_id: client.id, practitioner_id: input.practitioner_id, appointment_type_id: type.id, business_location_id: location?.id,
      starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString(), notes: input.notes ?? null,
    },
  });
  await queueWrite(tx, write, { userId: auth.userId, name: auth.fullName });
  return { appointment: await answered(tx, auth, id), warnings };
}

/**
 * Serialises the bookings and reschedules into one business's day, so that the rules each checks see the visit the
 * other has just made or moved (two at once each passed the check alone: one practitioner booked twice at 19:30 on
 * PostgreSQL). Taken before any row lock: a caller that locks an open visit before booking it takes its day first.
 */
export async function lockBookingDay(tx: Tx, business: number, date: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`rounds:booking-day:${business}:${date}`}))`);
}

/**
 * Reschedules a visit (PATCH /visits/{id}/reschedule): the move by hand's rules and route changes (schedule's
 * moveVisit, into the route of the day it reaches), then its write to the PMS. A booking whose create has not been
 * saved yet is not updated separately: its create writes the visit as it is when it runs.
 */
export async function rescheduleVisit(ctx: AppContext, auth: AuthContext, id: number, body: BodyOf<'rescheduleVisit'>): Promise<BookedVisitResult> {
  const business = auth.businessAccountId;
  const visit = await findVisit(ctx.db, business, id);
  if (!visit) throw notFound('Appointment');
  await refuseWithoutPms(ctx.db, business);
  return ctx.db.transaction(async (tx) => {
    await lockBookingDay(tx, business, dayOf(body.starts_at === undefined ? visit.startsAt : parseStart(body.starts_at), await businessTimeZone(tx, business)));
    const before = await lockVisitRow(tx, business, id);
    if (!before) throw notFound('Appointment');
    if (before.visit_state !== 'not_started') throw conflict('This visit has started; it cannot be rescheduled.', 'VISIT_STARTED');
    const reason = `Rescheduled by ${auth.fullName}${body.reason?.trim() ? `: ${body.reason.trim()}` : ''}`;
    // A two-carer visit moves as one (moveVisit): each half that moved is written.
    const halves = [before, ...await lockPartners(tx, business, before)];
    const warnings = await moveVisit(ctx, auth, id, { starts_at: body.starts_at, practitioner_id: body.practitioner_id, into_route: true }, { tx, reason });
    for (const half of halves) {
      const after = await lockVisitRow(tx, business, half.id);
      if (after.starts_at.getTime() === half.starts_at.getTime() && after.practitioner_id === half.practitioner_id) continue;
      const [latest] = await writesOfVisit(tx, business, half.id);
      // A booking not saved yet writes the visit as it is when it runs.
      if (latest?.kind === 'create' && (latest.state === 'saving' || latest.state === 'failed')) continue;
      const write = await insertWrite(tx, business, {
        appointmentId: half.id, kind: 'update', createdBy: auth.fullName,
        payload: { starts_at: after.starts_at.toISOString(), ends_at: after.ends_at.toISOString(), practitioner_id: after.practitioner_id },
      });
      await queueWrite(tx, write, { userId: auth.userId, name: auth.fullName });
    }
    return { appointment: await answered(tx, auth, id), warnings };
  });
}

export const cancellationReasons = () => CANCELLATION_REASONS.map(({ code, label }) => ({ code, label }));

/**
 * Cancels a visit (POST /visits/{id}/cancel): cancelled in Rounds at once and off its route, in the change log with the
 * reason, then written to the PMS. A booking that never reached the PMS is not written (there is nothing to cancel
 * there): its pending create is discarded. With tell_client the client is told (reminders' channels). Inside `tx` when
 * given (the care module's open visit takes its place in the same transaction; no client is told then), else in a
 * transaction of its own.
 */
export async function cancelVisit(ctx: AppContext, auth: AuthContext, id: number, body: BodyOf<'cancelVisit'>, tx?: Tx) {
  const business = auth.businessAccountId;
  const label = CANCELLATION_REASONS.find((reason) => reason.code === body.reason)?.label;
  if (!label) throw invalid(`reason must be one of ${CANCELLATION_REASONS.map((reason) => `${reason.code} (${reason.label})`).join(', ')}.`);
  const note = body.note?.trim() || null;
  const cancel = async (tx: Tx) => {
    const row = await lockVisitRow(tx, business, id);
    if (!row) throw notFound('Appointment');
    if (row.cancelled_at) throw conflict('This visit is already cancelled.', 'APPOINTMENT_CANCELLED');
    if (row.visit_state !== 'not_started') throw conflict('This visit has started; it cannot be cancelled.', 'VISIT_STARTED');
    const now = new Date();
    const timeZone = await businessTimeZone(tx, business);
    if (row.route_id !== null) await dropStopFromRoute(tx, business, id, row.route_id);
    await cancelAppointment(tx, business, id, now);
    await markRoutesStale(tx, business, [{ practitionerId: row.practitioner_id, at: row.starts_at }]);
    await recordVersion(tx, {
      businessAccountId: business, itemType: 'Appointment', itemId: id, event: 'update', whodunnit: auth.fullName,
      changes: { cancelled_at: [null, now], ...(row.route_id === null ? {} : { route_id: [row.route_id, null] }) },
      reason: `Cancelled by ${auth.fullName}: ${label}${note ? `: ${note}` : ''}`,
    });
    const [latest] = await writesOfVisit(tx, business, id);
    const unsavedCreate = latest?.kind === 'create' && latest.state === 'failed';
    if (unsavedCreate) {
      await updateWrite(tx, latest.id, { state: 'discarded' });
    } else {
      const write = await insertWrite(tx, business, {
        appointmentId: id, kind: 'cancel', createdBy: auth.fullName,
        payload: { cancellation_reason: body.reason as CancellationReasonCode, cancellation_note: note },
      });
      await queueWrite(tx, write, { userId: auth.userId, name: auth.fullName });
    }
    return {
      reoptimise: row.route_id === null ? null : { date: dayOf(row.arrive_at ?? row.starts_at, timeZone), practitioner_id: row.practitioner_id },
    };
  };
  if (tx) {
    const { reoptimise } = await cancel(tx);
    return { appointment: await answered(tx, auth, id), reoptimise, told_client: false };
  }
  const result = await ctx.db.transaction(cancel);
  const toldClient = body.tell_client ? await tellClientOfCancellation(ctx, business, id) : false;
  return { appointment: await answered(ctx.db, auth, id), reoptimise: result.reoptimise, told_client: toldClient };
}

/** Writes that need attention or are under way (GET /pms_writes). */
export async function listWrites(ctx: AppContext, auth: AuthContext, state?: 'saving' | 'failed' | 'conflict') {
  return { pms_writes: await listOpenWrites(ctx.db, auth.businessAccountId, state) };
}

/** "Try again" of a failed write, or a conflict's Overwrite (overwrite: the PMS's version is written over). */
export async function retryWrite(ctx: AppContext, auth: AuthContext, id: number, overwrite: boolean) {
  const row = await ctx.db.transaction(async (tx) => {
    const write = await findWrite(tx, auth.businessAccountId, id, true);
    if (!write) throw notFound('Write');
    if (write.state !== 'failed' && write.state !== 'conflict') throw conflict(`This write is ${write.state}; only a failed or conflicting write can be tried again.`, 'PMS_WRITE_NOT_OPEN');
    const again = await updateWrite(tx, write.id, {
      state: 'saving', message: null, differences: [], payload: { ...write.payload, overwrite: write.state === 'conflict' && overwrite },
    });
    if (again.appointment_id !== null) {
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Appointment', itemId: again.appointment_id, event: 'update', whodunnit: auth.fullName,
        changes: { pms_write: [write.state, 'saving'] },
        reason: write.state === 'conflict' && overwrite ? `${auth.fullName} chose to overwrite Cliniko's version` : `${auth.fullName} tried the write to Cliniko again`,
      });
    }
    await queueWrite(tx, again, { userId: auth.userId, name: auth.fullName });
    return again;
  });
  return { pms_write: toPmsWriteDto(row) };
}

/** Reads from the business's PMS during a request: 409 in words when it is not connected or does not answer. */
async function askPms<T>(ctx: AppContext, business: number, read: (adapter: PmsAdapter) => Promise<T>): Promise<T | undefined> {
  const account = await findProviderAccount(ctx.db, business);
  if (!account) throw conflict('Cliniko is not connected, so Rounds cannot read its version of this visit.', 'PMS_NOT_CONNECTED');
  try {
    return await read(adapterForAccount(ctx, account));
  } catch (error) {
    if (error instanceof PmsNotFoundError) return undefined;
    if (error instanceof ProviderAccountUnusableError) throw conflict(error.message, 'PMS_NOT_CONNECTED');
    if (error instanceof PmsError) throw conflict(`Cliniko did not answer (${error.message}); try again in a moment.`, 'PMS_UNAVAILABLE');
    throw error;
  }
}

/**
 * "Discard" of a failed or conflicting write: a booking that never reached the PMS leaves Rounds; a reschedule or
 * cancellation takes the PMS's version of the visit back (re-read now; a visit deleted there is cancelled here).
 */
export async function discardWrite(ctx: AppContext, auth: AuthContext, id: number) {
  const business = auth.businessAccountId;
  const write = await findWrite(ctx.db, business, id);
  if (!write) throw notFound('Write');
  const refuseClosed = (state: string) => {
    if (state !== 'failed' && state !== 'conflict') throw conflict(`This write is ${state}; only a failed or conflicting write can be discarded.`, 'PMS_WRITE_NOT_OPEN');
  };
  refuseClosed(write.state);
  const link = write.kind !== 'create' && write.appointment_id !== null ? await pmsLinkOf(ctx.db, business, write.appointment_id) : undefined;
  const pms = link ? await askPms(ctx, business, (adapter) => adapter.getIndividualAppointment(link.externalId)) : undefined;
  // A booking tried before may have reached the PMS after all (an unclear answer): then it is not discarded but linked.
  if (write.kind === 'create' && write.attempts > 0 && write.appointment_id !== null) {
    const [visit] = await ctx.db.select().from(appointments).where(eq(appointments.id, write.appointment_id));
    // Without a connection there is nothing to ask: the coordinator's Discard stands.
    const found = visit && await askPms(ctx, business, (adapter) => lookUp(adapter, write, visit)).catch((error: unknown) => {
      if (error instanceof HttpError && error.code === 'PMS_NOT_CONNECTED') return undefined;
      throw error;
    });
    if (visit && found) {
      await saved(ctx, write, visit, found);
      throw conflict('Cliniko has this booking after all (an earlier try reached it): it is linked and saved, not discarded.', 'PMS_WRITE_SAVED');
    }
  }
  const practitionerIds = pms ? await externalToLocal(ctx.db, business, 'Practitioner') : new Map<string, number>();

  const result = await ctx.db.transaction(async (tx) => {
    const locked = await findWrite(tx, business, id, true);
    refuseClosed(locked!.state);
    const visit = write.appointment_id === null ? undefined : await lockVisitRow(tx, business, write.appointment_id);
    let gone = false;
    if (visit && write.kind === 'create') {
      if (visit.route_id !== null) await dropStopFromRoute(tx, business, visit.id, visit.route_id);
      await markRoutesStale(tx, business, [{ practitionerId: visit.practitioner_id, at: visit.starts_at }]);
      await recordVersion(tx, {
        businessAccountId: business, itemType: 'Appointment', itemId: visit.id, event: 'destroy', whodunnit: auth.fullName,
        changes: { starts_at: [visit.starts_at, null], practitioner_id: [visit.practitioner_id, null], client_id: [visit.client_id, null] },
        reason: `Discarded by ${auth.fullName}: the booking never reached Cliniko`,
      });
      await deleteBookedVisit(tx, business, visit.id);
      gone = true;
    } else if (visit && link) {
      const back = pms
        ? {
          starts_at: new Date(pms.starts_at), ends_at: new Date(pms.ends_at), practitioner_id: practitionerIds.get(pms.practitioner_id) ?? visit.practitioner_id,
          cancelled_at: pms.cancelled_at ?? pms.archived_at ? new Date((pms.cancelled_at ?? pms.archived_at)!) : pms.deleted ? new Date(pms.updated_at) : null,
        }
        : { starts_at: visit.starts_at, ends_at: visit.ends_at, practitioner_id: visit.practitioner_id, cancelled_at: visit.cancelled_at ?? new Date() };
      const changes: ObjectChanges = {};
      for (const field of ['starts_at', 'ends_at', 'practitioner_id', 'cancelled_at'] as const) {
        const [was, now] = [visit[field], back[field]];
        if ((was instanceof Date ? was.getTime() : was) !== (now instanceof Date ? now.getTime() : now)) changes[field] = [was, now];
      }
      if (Object.keys(changes).length > 0 && visit.route_id !== null) {
        await dropStopFromRoute(tx, business, visit.id, visit.route_id);
        await clearAppointmentRoute(tx, business, visit.id);
        changes.route_id = [visit.route_id, null];
      }
      await writeVisitFromPms(tx, business, visit.id, back);
      await markRoutesStale(tx, business, [{ practitionerId: visit.practitioner_id, at: visit.starts_at }, { practitionerId: back.practitioner_id, at: back.starts_at }]);
      await recordVersion(tx, {
        businessAccountId: business, itemType: 'Appointment', itemId: visit.id, event: 'update', whodunnit: auth.fullName, changes,
        reason: pms ? `Discarded by ${auth.fullName}: Cliniko's version taken back` : `Discarded by ${auth.fullName}: the appointment is no longer in Cliniko`,
      });
      if (pms) await linkAppointmentToPms(tx, business, visit.id, pms, back.practitioner_id);
    }
    const discarded = await updateWrite(tx, id, { state: 'discarded' });
    return { discarded, appointmentId: gone || !visit ? null : visit.id };
  });
  return {
    pms_write: toPmsWriteDto(result.discarded),
    appointment: result.appointmentId === null ? null : await answered(ctx.db, auth, result.appointmentId),
  };
}
