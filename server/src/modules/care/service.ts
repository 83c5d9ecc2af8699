// Care plans, open visits, client absences and public holidays (issue 36, ADR 0025). Changes to a plan and absences
// act from today on: open visits are generated again or removed; booked visits that no longer fit are cancelled
// through the bookings module (written to the PMS, in the change log). Past visits stay as they are.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import type { DbOrTx, Tx } from '../../db/client';
import { businessAccounts } from '../../db/schema';
import { openVisits, type AbsenceReason } from '../../db/schema-care';
import type { BodyOf, QueryOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { longDate } from '../../lib/long-date';
import { dayOf } from '../schedule';
import { notesWithoutBookingNote } from '../sync';
import { bookInTx, bookVisit, cancelBooked, cancelInTx, CANCEL_AWAY, CANCEL_OTHER, CANCEL_SICK, lockBookingDay, requirePmsConnection, type BookVisitInput, type CancelReason } from './bookings-link';
import { addDays, clockOfMinutes, instantOn, isoWeekday, localClockOf, minutesOfClock, parseDay, today } from './clock';
import { absenceDto, carePlanDto, holidayDto, openVisitDto } from './dto';
import { generateOpenVisits } from './generation';
import {
  clientOpenVisits, clientPlanBookings, clientsByIds, deleteAbsence, deleteHoliday, deleteOccurrences, filledBy, findAbsence, findClient, findHoliday,
  findOpenVisit, findPlan, insertAbsence, insertHoliday, insertOpenVisit, insertPlan, listAbsences, listHolidays, listOpen, listPlansOfClient,
  markFilled, occurrencesOf, ownPractitioners, planCounts, removeOpenVisits, reopen, typesByIds, updatePlan, type CarePlanRow, type OpenVisitRow,
} from './repository';

export type CarePlanInput = Schemas['CarePlanInput'];

/** The widest range one list of open visits may ask for. */
const MAX_LIST_DAYS = 366;

export async function weeksAhead(db: DbOrTx, business: number): Promise<number> {
  const [row] = await db.select({ weeks: businessAccounts.care_plan_weeks_ahead }).from(businessAccounts).where(eq(businessAccounts.id, business));
  return row?.weeks ?? 4;
}

async function requireClient(db: DbOrTx, business: number, id: number) {
  const client = await findClient(db, business, id);
  if (!client) throw notFound('Client');
  return client;
}

async function requireType(db: DbOrTx, business: number, id: number) {
  const type = (await typesByIds(db, business, [id])).get(id);
  if (!type) throw notFound('Appointment type');
  return type;
}

/** A window and duration, checked: the visit fits inside the window. */
function windowOf(input: { window_start: string; window_end: string; duration_minutes?: number }, typeDuration: number) {
  const start = minutesOfClock(input.window_start);
  const end = minutesOfClock(input.window_end);
  if (end <= start) throw invalid(`window_end: the window must end after it starts (${input.window_end} is not after ${input.window_start}).`);
  const duration = input.duration_minutes ?? typeDuration;
  if (duration < 5 || duration > 720) {
    throw invalid(`duration_minutes: a visit is 5 to 720 minutes long; the type's ${typeDuration} minutes will not do, so give its length.`);
  }
  if (duration > end - start) {
    throw invalid(`duration_minutes: a ${duration}-minute visit does not fit in the window ${input.window_start}–${input.window_end}; widen the window or shorten the visit.`);
  }
  return { start, end, duration };
}

// Care plans

async function plansDto(db: DbOrTx, business: number, rows: CarePlanRow[], timeZone: string): Promise<Schemas['CarePlan'][]> {
  const [types, counts] = await Promise.all([
    typesByIds(db, business, [...new Set(rows.map((row) => row.appointment_type_id))]),
    planCounts(db, business, rows.map((row) => row.id), today(timeZone)),
  ]);
  return rows.map((row) => carePlanDto(row, types.get(row.appointment_type_id)!, counts.get(row.id)));
}

export async function listCarePlans(ctx: AppContext, auth: AuthContext, clientId: number): Promise<Schemas['CarePlan'][]> {
  const business = auth.businessAccountId;
  await requireClient(ctx.db, business, clientId);
  return plansDto(ctx.db, business, await listPlansOfClient(ctx.db, business, clientId), await businessTimeZone(ctx.db, business));
}

async function planValues(db: DbOrTx, business: number, input: CarePlanInput) {
  const type = await requireType(db, business, input.appointment_type_id);
  const preferred = [...new Set(input.preferred_practitioner_ids ?? [])];
  const own = await ownPractitioners(db, business, preferred);
  if (preferred.some((id) => !own.has(id))) throw notFound('Practitioner');
  const window = windowOf(input, type.duration);
  const startsOn = parseDay(input.starts_on, 'starts_on');
  const endsOn = input.ends_on == null ? null : parseDay(input.ends_on, 'ends_on');
  if (endsOn !== null && endsOn < startsOn) throw invalid(`ends_on: the plan's last day (${endsOn}) must not be before its first (${startsOn}).`);
  return {
    appointment_type_id: type.id, weekdays: [...new Set(input.weekdays)].sort((a, b) => a - b), window_start: window.start, window_end: window.end,
    duration_minutes: window.duration, carers: input.carers ?? 1, starts_on: startsOn, ends_on: endsOn, preferred_practitioner_ids: preferred,
    notes: input.notes?.trim() || null,
  };
}

/** The plan's open visits for the weeks ahead, from today. */
async function generateAhead(tx: Tx, business: number, timeZone: string, planId: number): Promise<void> {
  const from = today(timeZone);
  await generateOpenVisits(tx, business, timeZone, from, addDays(from, (await weeksAhead(tx, business)) * 7), [planId]);
}

export async function createCarePlan(ctx: AppContext, auth: AuthContext, clientId: number, input: CarePlanInput): Promise<Schemas['CarePlan']> {
  const business = auth.businessAccountId;
  await requireClient(ctx.db, business, clientId);
  const values = await planValues(ctx.db, business, input);
  const timeZone = await businessTimeZone(ctx.db, business);
  const plan = await ctx.db.transaction(async (tx) => {
    const row = await insertPlan(tx, { business_account_id: business, client_id: clientId, ...values });
    await generateAhead(tx, business, timeZone, row.id);
    return row;
  });
  return (await plansDto(ctx.db, business, [plan], timeZone))[0];
}

/** Whether a booked visit (where it is now: it may have been rescheduled) still keeps to the plan: weekday, dates, type, window and length. */
function keepsToPlan(plan: Pick<CarePlanRow, 'weekdays' | 'starts_on' | 'ends_on' | 'appointment_type_id' | 'window_start' | 'window_end' | 'duration_minutes'>,
  visit: OpenVisitRow, startsAt: Date, timeZone: string): boolean {
  const date = dayOf(startsAt, timeZone);
  if (!plan.weekdays.includes(isoWeekday(date)) || date < plan.starts_on || (plan.ends_on !== null && date > plan.ends_on)) return false;
  if (visit.appointment_type_id !== plan.appointment_type_id || visit.duration_minutes !== plan.duration_minutes) return false;
  const from = instantOn(date, plan.window_start, timeZone).getTime();
  const to = instantOn(date, plan.window_end, timeZone).getTime();
  return startsAt.getTime() >= from && startsAt.getTime() + plan.duration_minutes * 60_000 <= to;
}

/** A booked visit that has neither started nor passed (what a change from today on may cancel). */
const isUpcoming = (occurrence: { cancelledAt: Date | null; startsAt: Date | null; visitState: string | null }, now: Date) =>
  occurrence.cancelledAt === null && occurrence.startsAt !== null && occurrence.startsAt > now && occurrence.visitState === 'not_started';

export async function updateCarePlan(ctx: AppContext, auth: AuthContext, id: number, input: CarePlanInput): Promise<Schemas['CarePlan']> {
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const existing = await findPlan(ctx.db, business, id);
  if (!existing) throw notFound('Care plan');
  const values = await planValues(ctx.db, business, input);
  const from = today(timeZone);
  // Booked visits from now on that the changed plan no longer has are cancelled first, so the plan generates anew.
  const now = new Date();
  const misfits = (await occurrencesOf(ctx.db, business, [id], from, null)).filter((occurrence) => occurrence.visit.state === 'filled'
    && isUpcoming(occurrence, now) && !keepsToPlan(values, occurrence.visit, occurrence.startsAt!, timeZone));
  const cancelled = new Set(await cancelBooked(ctx, auth, misfits.map((occurrence) => occurrence.visit.appointment_id!), CANCEL_OTHER, 'The care plan changed'));
  const plan = await ctx.db.transaction(async (tx) => {
    if (!await findPlan(tx, business, id, true)) throw notFound('Care plan');
    const updated = await updatePlan(tx, business, id, values);
    // Its open visits and the visits just cancelled are forgotten, so the plan as it now is generates them again.
    const stale = (await occurrencesOf(tx, business, [id], from, null)).filter((occurrence) => occurrence.visit.state === 'open'
      || (occurrence.visit.appointment_id !== null && cancelled.has(occurrence.visit.appointment_id)));
    await deleteOccurrences(tx, business, stale.map((occurrence) => occurrence.visit.id));
    await generateAhead(tx, business, timeZone, id);
    return updated;
  });
  return (await plansDto(ctx.db, business, [plan], timeZone))[0];
}

export async function endCarePlan(
  ctx: AppContext, auth: AuthContext, id: number, endsOn: string,
): Promise<{ care_plan: Schemas['CarePlan']; cancelled_visits: number; removed_open_visits: number }> {
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const existing = await findPlan(ctx.db, business, id);
  if (!existing) throw notFound('Care plan');
  const lastDay = parseDay(endsOn, 'ends_on');
  if (lastDay < today(timeZone)) throw invalid(`ends_on: a plan ends today or later (${longDate(lastDay)} has passed); past visits stay as they are.`);
  if (lastDay < existing.starts_on) throw invalid(`ends_on: the plan starts on ${longDate(existing.starts_on)}; it cannot end before.`);
  const reason = `${longDate(lastDay)} was the care plan's last day`;
  const now = new Date();
  const after = await occurrencesOf(ctx.db, business, [id], addDays(lastDay, 1), null);
  const booked = after.filter((occurrence) => occurrence.visit.state === 'filled' && isUpcoming(occurrence, now));
  const cancelled = new Set(await cancelBooked(ctx, auth, booked.map((occurrence) => occurrence.visit.appointment_id!), CANCEL_OTHER, 'The care plan ended'));
  const { plan, removed } = await ctx.db.transaction(async (tx) => {
    if (!await findPlan(tx, business, id, true)) throw notFound('Care plan');
    const cancelledOccurrences = booked.filter((occurrence) => cancelled.has(occurrence.visit.appointment_id!)).map((occurrence) => occurrence.visit.id);
    if (cancelledOccurrences.length) {
      await tx.update(openVisits).set({ state: 'removed', reason, updated_at: now }).where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, cancelledOccurrences)));
    }
    const open = (await occurrencesOf(tx, business, [id], addDays(lastDay, 1), null)).filter((occurrence) => occurrence.visit.state === 'open');
    const removedCount = await removeOpenVisits(tx, business, open.map((occurrence) => occurrence.visit.id), reason);
    return { plan: await updatePlan(tx, business, id, { ends_on: lastDay }), removed: removedCount };
  });
  return { care_plan: (await plansDto(ctx.db, business, [plan], timeZone))[0], cancelled_visits: cancelled.size, removed_open_visits: removed };
}

// Open visits

export async function openVisitsDto(db: DbOrTx, business: number, rows: OpenVisitRow[]): Promise<Schemas['OpenVisit'][]> {
  const [clients, types] = await Promise.all([
    clientsByIds(db, business, [...new Set(rows.map((row) => row.client_id))]),
    typesByIds(db, business, [...new Set(rows.map((row) => row.appointment_type_id))]),
  ]);
  return rows.map((row) => openVisitDto(row, clients.get(row.client_id)!, types.get(row.appointment_type_id)!));
}

export async function listOpenVisits(ctx: AppContext, auth: AuthContext, query: QueryOf<'listOpenVisits'>): Promise<Schemas['OpenVisit'][]> {
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const from = query.start_date ? parseDay(query.start_date, 'start_date') : today(timeZone);
  const to = query.end_date ? parseDay(query.end_date, 'end_date') : addDays(from, 27);
  if (to < from) throw invalid(`end_date: the last day (${to}) must not be before the first (${from}).`);
  if (to > addDays(from, MAX_LIST_DAYS - 1)) throw invalid(`end_date: ask for at most ${MAX_LIST_DAYS} days at a time.`);
  return openVisitsDto(ctx.db, business, await listOpen(ctx.db, business, from, to));
}

export async function createOpenVisit(ctx: AppContext, auth: AuthContext, body: BodyOf<'createOpenVisit'>): Promise<Schemas['OpenVisit']> {
  const business = auth.businessAccountId;
  await requireClient(ctx.db, business, body.client_id);
  const type = await requireType(ctx.db, business, body.appointment_type_id);
  const window = windowOf(body, type.duration);
  const date = parseDay(body.date, 'date');
  const timeZone = await businessTimeZone(ctx.db, business);
  if (date < today(timeZone)) throw invalid(`date: ${longDate(date)} has passed.`);
  const row = await insertOpenVisit(ctx.db, business, {
    client_id: body.client_id, appointment_type_id: type.id, care_plan_id: null, date, window_start: window.start, window_end: window.end,
    duration_minutes: window.duration, carer_index: 0, reason: `Added by ${auth.fullName}`, notes: body.notes?.trim() || null,
  });
  return (await openVisitsDto(ctx.db, business, [row]))[0];
}

export async function deleteOpenVisit(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const business = auth.businessAccountId;
  await ctx.db.transaction(async (tx) => {
    const row = await findOpenVisit(tx, business, id, true);
    if (!row) throw notFound('Open visit');
    if (row.state === 'filled') throw conflict('This visit is booked already: cancel the visit instead.', 'OPEN_VISIT_FILLED');
    await removeOpenVisits(tx, business, [id], `Removed by ${auth.fullName}`);
  });
}

/**
 * "Needs another practitioner" (POST /visits/{id}/open): the visit is cancelled (in the PMS: Other, with the note) and an
 * open visit takes its place in the same transaction: its window lets it start its tolerance either side of the agreed
 * start. The open visit it filled is opened again, unless it is a care plan's whose day or window would change: that one
 * keeps its occurrence's key (so the plan never generates the occurrence again) and a new open visit of the plan is added.
 */
export async function openVisitFromBooking(ctx: AppContext, auth: AuthContext, id: number, body: BodyOf<'openVisitFromBooking'>) {
  const business = auth.businessAccountId;
  const why = body.reason?.trim();
  return ctx.db.transaction(async (tx) => {
    const { appointment } = await cancelInTx(ctx, auth, tx, id, CANCEL_OTHER, `Needs another practitioner${why ? `: ${why}` : ''}`);
    if (!appointment.client || !appointment.appointment_type) {
      throw conflict('This visit has no client or no appointment type, so it cannot wait as an open visit; cancel it instead.', 'VISIT_INCOMPLETE');
    }
    const timeZone = await businessTimeZone(tx, business);
    const agreed = localClockOf(new Date(appointment.agreed_starts_at), timeZone);
    if (agreed.date < today(timeZone)) throw invalid(`This visit was on ${longDate(agreed.date)}, which has passed.`);
    const duration = Math.round((Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)) / 60_000);
    if (duration < 5 || duration > 720) throw invalid(`This visit is ${duration} minutes long; an open visit is 5 to 720 minutes.`);
    // The whole visit inside the window, and the window inside its day.
    const windowStart = Math.max(0, Math.min(agreed.minutes - appointment.tolerance_minutes, MINUTES_OF_DAY - duration));
    const windowEnd = Math.min(MINUTES_OF_DAY, Math.max(agreed.minutes + appointment.tolerance_minutes + duration, windowStart + duration));
    const reason = `${appointment.practitioner.full_name} cannot do it${why ? `: ${why}` : ''}`;
    const filled = await filledBy(tx, business, id);
    const sameKey = filled?.date === agreed.date && filled.window_start === windowStart;
    const row = filled && (filled.care_plan_id === null || sameKey)
      ? await reopen(tx, business, filled.id, { date: agreed.date, window_start: windowStart, window_end: windowEnd, duration_minutes: duration, reason })
      : await insertOpenVisit(tx, business, {
        client_id: appointment.client.id, appointment_type_id: appointment.appointment_type.id, care_plan_id: filled?.care_plan_id ?? null, date: agreed.date,
        window_start: windowStart, window_end: windowEnd, duration_minutes: duration, carer_index: filled?.carer_index ?? 0, reason,
        notes: filled?.notes ?? notesWithoutBookingNote(appointment.notes),
      });
    return { open_visit: (await openVisitsDto(tx, business, [row]))[0], appointment };
  });
}

const MINUTES_OF_DAY = 1440;

/** Books an open visit (locked, still open) in the transaction; it leaves the open list with it. */
export async function fillInTx(ctx: AppContext, auth: AuthContext, tx: Tx, row: OpenVisitRow, input: BookVisitInput, options?: { partnerFollows?: boolean }) {
  const booked = await bookInTx(ctx, auth, tx, { ...input, open_visit_id: row.id }, options);
  await markFilled(tx, row.business_account_id, row.id, booked.appointment.id);
  return booked;
}

/** The booking of an open visit: its client, type, length and notes, with a practitioner and a start. */
export const bookingOf = (row: OpenVisitRow, practitionerId: number, startsAt: string): BookVisitInput => ({
  client_id: row.client_id, appointment_type_id: row.appointment_type_id, practitioner_id: practitionerId, starts_at: startsAt,
  duration_minutes: row.duration_minutes, ...(row.notes ? { notes: row.notes } : {}),
});

/** Locks the open visit, still open (404, 409), and books it with `input` in one transaction (PMS connected first). */
async function bookOpenVisit(ctx: AppContext, auth: AuthContext, id: number, input: (row: OpenVisitRow) => BookVisitInput) {
  const business = auth.businessAccountId;
  const unlocked = await findOpenVisit(ctx.db, business, id);
  if (!unlocked) throw notFound('Open visit');
  await requirePmsConnection(ctx, business);
  return ctx.db.transaction(async (tx) => {
    await lockBookingDay(tx, business, unlocked.date);
    const row = await findOpenVisit(tx, business, id, true);
    if (!row) throw notFound('Open visit');
    if (row.state !== 'open') throw conflict(row.state === 'filled' ? 'This open visit is filled already.' : 'This open visit was removed.', 'OPEN_VISIT_NOT_OPEN');
    return fillInTx(ctx, auth, tx, row, input(row));
  });
}

export async function fillOpenVisit(ctx: AppContext, auth: AuthContext, id: number, body: BodyOf<'fillOpenVisit'>) {
  const timeZone = await businessTimeZone(ctx.db, auth.businessAccountId);
  const start = Date.parse(body.starts_at);
  if (Number.isNaN(start)) throw invalid('starts_at must be an ISO 8601 timestamp with its offset.');
  return bookOpenVisit(ctx, auth, id, (row) => {
    const from = instantOn(row.date, row.window_start, timeZone).getTime();
    const to = instantOn(row.date, row.window_end, timeZone).getTime();
    if (start < from || start + row.duration_minutes * 60_000 > to) {
      throw invalid(`starts_at: the visit must take place inside its window (${longDate(row.date)}, ${clockOfMinutes(row.window_start)}–${clockOfMinutes(row.window_end)}).`);
    }
    return bookingOf(row, body.practitioner_id, body.starts_at);
  });
}

/**
 * POST /visits: bookings' booking; with open_visit_id, that open visit (of the same client) is filled in the booking's
 * transaction, so it leaves the open list with it.
 */
export async function bookVisitFillingOpenVisit(ctx: AppContext, auth: AuthContext, body: BookVisitInput) {
  if (body.open_visit_id === undefined) return bookVisit(ctx, auth, body);
  return bookOpenVisit(ctx, auth, body.open_visit_id, (row) => {
    if (row.client_id !== body.client_id) throw invalid('open_visit_id: that open visit is another client\'s.');
    return body;
  });
}

// Client absences

const ABSENCE_WORDS: Record<AbsenceReason, string> = { hospital: 'is in hospital', away: 'is away', other: 'is not at home' };
const ABSENCE_CANCELLATION: Record<AbsenceReason, CancelReason> = { hospital: CANCEL_SICK, away: CANCEL_AWAY, other: CANCEL_OTHER };

export async function listClientAbsences(ctx: AppContext, auth: AuthContext, clientId: number): Promise<Schemas['ClientAbsence'][]> {
  await requireClient(ctx.db, auth.businessAccountId, clientId);
  return (await listAbsences(ctx.db, auth.businessAccountId, clientId)).map(absenceDto);
}

export async function createClientAbsence(
  ctx: AppContext, auth: AuthContext, clientId: number, body: BodyOf<'createClientAbsence'>,
): Promise<{ absence: Schemas['ClientAbsence']; cancelled_visits: number; removed_open_visits: number }> {
  const business = auth.businessAccountId;
  const client = await requireClient(ctx.db, business, clientId);
  const startsOn = parseDay(body.starts_on, 'starts_on');
  const endsOn = parseDay(body.ends_on, 'ends_on');
  if (endsOn < startsOn) throw invalid(`ends_on: the last day (${endsOn}) must not be before the first (${startsOn}).`);
  const timeZone = await businessTimeZone(ctx.db, business);
  const from = startsOn > today(timeZone) ? startsOn : today(timeZone);
  const reason = `Paused: ${client.name} ${ABSENCE_WORDS[body.reason]} (${longDate(startsOn, { withYear: false })} to ${longDate(endsOn, { withYear: false })})`;
  const { absence, removed } = await ctx.db.transaction(async (tx) => {
    // One absence a day for a client: a second press of Add, or two at once, is refused rather than listed twice.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`rounds:absence:${business}:${clientId}`}))`);
    const overlapping = (await listAbsences(tx, business, clientId)).find((other) => other.starts_on <= endsOn && other.ends_on >= startsOn);
    if (overlapping) {
      throw conflict(`${client.name} is already away from ${longDate(overlapping.starts_on, { withYear: false })} to ${longDate(overlapping.ends_on, { withYear: false })}: remove that absence first to record a different one.`, 'ABSENCE_OVERLAPS');
    }
    const row = await insertAbsence(tx, { business_account_id: business, client_id: clientId, starts_on: startsOn, ends_on: endsOn, reason: body.reason, note: body.note?.trim() || null });
    const open = from <= endsOn ? await clientOpenVisits(tx, business, clientId, from, endsOn) : [];
    const removedCount = await removeOpenVisits(tx, business, open.map((visit) => visit.id), reason);
    // Plan occurrences remember the absence: removing it forgets them, so they are generated again.
    const fromPlans = open.filter((visit) => visit.care_plan_id !== null).map((visit) => visit.id);
    if (fromPlans.length) await tx.update(openVisits).set({ absence_id: row.id }).where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, fromPlans)));
    return { absence: row, removed: removedCount };
  });
  // The plans' booked visits still to come in the range are cancelled in the PMS, with the absence's reason.
  const booked = from <= endsOn ? await clientPlanBookings(ctx.db, business, clientId, from, endsOn) : [];
  const cancelled = new Set(await cancelBooked(ctx, auth, booked.map((booking) => booking.appointmentId), ABSENCE_CANCELLATION[body.reason], reason));
  const paused = booked.filter((booking) => cancelled.has(booking.appointmentId)).map((booking) => booking.openVisitId);
  if (paused.length) {
    await ctx.db.update(openVisits).set({ state: 'removed', reason, absence_id: absence.id, updated_at: new Date() })
      .where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, paused)));
  }
  return { absence: absenceDto(absence), cancelled_visits: cancelled.size, removed_open_visits: removed };
}

export async function deleteClientAbsence(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const business = auth.businessAccountId;
  await ctx.db.transaction(async (tx) => {
    if (!await findAbsence(tx, business, id)) throw notFound('Client absence');
    await deleteAbsence(tx, business, id);
  });
}

// Public holidays

export async function listPublicHolidays(ctx: AppContext, auth: AuthContext): Promise<Schemas['PublicHoliday'][]> {
  return (await listHolidays(ctx.db, auth.businessAccountId)).map(holidayDto);
}

export async function createPublicHoliday(ctx: AppContext, auth: AuthContext, body: BodyOf<'createPublicHoliday'>): Promise<Schemas['PublicHoliday']> {
  const business = auth.businessAccountId;
  const date = parseDay(body.date, 'date');
  const name = body.name.trim();
  if (!name) throw invalid('name: give the holiday a name.');
  return ctx.db.transaction(async (tx) => {
    const row = await insertHoliday(tx, business, date, name);
    if (!row) throw conflict(`${longDate(date)} is a public holiday already.`, 'HOLIDAY_EXISTS');
    // The plans' open visits that day pause (booked ones stay: a coordinator booked them on purpose).
    const planned = await tx.select({ id: openVisits.id }).from(openVisits).where(and(
      eq(openVisits.business_account_id, business), eq(openVisits.date, date), eq(openVisits.state, 'open'), isNotNull(openVisits.care_plan_id),
    ));
    await removeOpenVisits(tx, business, planned.map((visit) => visit.id), `Paused: ${name} (public holiday)`);
    return holidayDto(row);
  });
}

export async function deletePublicHoliday(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const business = auth.businessAccountId;
  if (!await findHoliday(ctx.db, business, id)) throw notFound('Public holiday');
  await deleteHoliday(ctx.db, business, id);
}
