// Care queries: care plans, open visits, client absences, public holidays and allocations of one business. Only this
// module writes these tables; every read and write is scoped by the business.
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { appointments, appointmentTypes, clients, practitioners, type AvailabilityEntry } from '../../db/schema';
import {
  carePlanAllocations, carePlans, clientAbsences, openVisits, publicHolidays, type AllocationStatus,
} from '../../db/schema-care';

export type CarePlanRow = typeof carePlans.$inferSelect;
export type OpenVisitRow = typeof openVisits.$inferSelect;
export type AbsenceRow = typeof clientAbsences.$inferSelect;
export type HolidayRow = typeof publicHolidays.$inferSelect;
export type AllocationRow = typeof carePlanAllocations.$inferSelect;
export type NewOpenVisit = Omit<typeof openVisits.$inferInsert, 'id' | 'business_account_id' | 'state' | 'appointment_id' | 'created_at' | 'updated_at'>;

export interface TypeRow { id: number; name: string; duration: number; color: string | null }
export interface ClientRow { id: number; name: string; lat: number | null; lng: number | null }

const clientName = sql<string>`trim(${clients.first_name} || ' ' || ${clients.last_name})`;

export async function findClient(db: DbOrTx, business: number, id: number): Promise<ClientRow | undefined> {
  const [row] = await db.select({ id: clients.id, name: clientName, lat: clients.lat, lng: clients.lng }).from(clients)
    .where(and(eq(clients.business_account_id, business), eq(clients.id, id)));
  return row;
}

export async function clientsByIds(db: DbOrTx, business: number, ids: readonly number[]): Promise<Map<number, ClientRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: clients.id, name: clientName, lat: clients.lat, lng: clients.lng }).from(clients)
    .where(and(eq(clients.business_account_id, business), inArray(clients.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function typesByIds(db: DbOrTx, business: number, ids: readonly number[]): Promise<Map<number, TypeRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: appointmentTypes.id, name: appointmentTypes.name, duration: appointmentTypes.duration, color: appointmentTypes.color })
    .from(appointmentTypes).where(and(eq(appointmentTypes.business_account_id, business), inArray(appointmentTypes.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The ids of `ids` that are practitioners of the business. */
export async function ownPractitioners(db: DbOrTx, business: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: practitioners.id }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, business), inArray(practitioners.id, [...ids])));
  return new Set(rows.map((row) => row.id));
}

export async function activePractitionerIds(db: DbOrTx, business: number): Promise<number[]> {
  const rows = await db.select({ id: practitioners.id }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, business), eq(practitioners.active, true))).orderBy(asc(practitioners.id));
  return rows.map((row) => row.id);
}

// Care plans

export function listPlansOfClient(db: DbOrTx, business: number, clientId: number): Promise<CarePlanRow[]> {
  return db.select().from(carePlans).where(and(eq(carePlans.business_account_id, business), eq(carePlans.client_id, clientId)))
    .orderBy(desc(carePlans.starts_on), desc(carePlans.id));
}

/** The business's plans running on some day of [from, to]. */
export function plansRunningBetween(db: DbOrTx, business: number, from: string, to: string): Promise<CarePlanRow[]> {
  return db.select().from(carePlans).where(and(
    eq(carePlans.business_account_id, business), lte(carePlans.starts_on, to), or(isNull(carePlans.ends_on), gte(carePlans.ends_on, from)),
  )).orderBy(asc(carePlans.id));
}

export async function findPlan(db: DbOrTx, business: number, id: number, lock = false): Promise<CarePlanRow | undefined> {
  const query = db.select().from(carePlans).where(and(eq(carePlans.business_account_id, business), eq(carePlans.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertPlan(tx: DbOrTx, values: typeof carePlans.$inferInsert): Promise<CarePlanRow> {
  const [row] = await tx.insert(carePlans).values(values).returning();
  return row;
}

export async function updatePlan(tx: DbOrTx, business: number, id: number, values: Partial<typeof carePlans.$inferInsert>): Promise<CarePlanRow> {
  const [row] = await tx.update(carePlans).set({ ...values, updated_at: new Date() })
    .where(and(eq(carePlans.business_account_id, business), eq(carePlans.id, id))).returning();
  return row;
}

/** Each plan's open visits and booked (not cancelled) visits from `today` on. */
export async function planCounts(db: DbOrTx, business: number, planIds: readonly number[], today: string): Promise<Map<number, { open: number; booked: number }>> {
  if (planIds.length === 0) return new Map();
  const rows = await queryRows<{ care_plan_id: number; open: number; booked: number }>(db, sql`
    SELECT ov.care_plan_id,
      count(*) FILTER (WHERE ov.state = 'open')::int AS open,
      count(*) FILTER (WHERE ov.state = 'filled' AND a.cancelled_at IS NULL)::int AS booked
    FROM open_visits ov LEFT JOIN appointments a ON a.id = ov.appointment_id
    WHERE ov.business_account_id = ${business} AND ov.care_plan_id IN (${sql.join(planIds.map((id) => sql`${id}`), sql`, `)})
      AND ov.date >= ${today}
    GROUP BY ov.care_plan_id`);
  return new Map(rows.map((row) => [Number(row.care_plan_id), { open: Number(row.open), booked: Number(row.booked) }]));
}

// Open visits

export function listOpen(db: DbOrTx, business: number, from: string, to: string): Promise<OpenVisitRow[]> {
  return db.select().from(openVisits).where(and(
    eq(openVisits.business_account_id, business), eq(openVisits.state, 'open'), gte(openVisits.date, from), lte(openVisits.date, to),
  )).orderBy(asc(openVisits.date), asc(openVisits.window_start), asc(openVisits.id));
}

export async function findOpenVisit(db: DbOrTx, business: number, id: number, lock = false): Promise<OpenVisitRow | undefined> {
  const query = db.select().from(openVisits).where(and(eq(openVisits.business_account_id, business), eq(openVisits.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function openVisitsByIds(db: DbOrTx, business: number, ids: readonly number[], lock = false): Promise<OpenVisitRow[]> {
  if (ids.length === 0) return [];
  const query = db.select().from(openVisits).where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, [...ids])));
  return lock ? query.for('update') : query;
}

/** Inserts the occurrences not generated before (any state); answers those it inserted. */
export async function insertOccurrences(tx: DbOrTx, business: number, rows: readonly NewOpenVisit[]): Promise<OpenVisitRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(openVisits).values(rows.map((row) => ({ ...row, business_account_id: business })))
    .onConflictDoNothing({ target: [openVisits.care_plan_id, openVisits.date, openVisits.window_start, openVisits.carer_index], where: sql`care_plan_id IS NOT NULL` })
    .returning();
}

export async function insertOpenVisit(tx: DbOrTx, business: number, row: NewOpenVisit): Promise<OpenVisitRow> {
  const [inserted] = await tx.insert(openVisits).values({ ...row, business_account_id: business }).returning();
  return inserted;
}

export async function markFilled(tx: DbOrTx, business: number, id: number, appointmentId: number): Promise<void> {
  await tx.update(openVisits).set({ state: 'filled', appointment_id: appointmentId, updated_at: new Date() })
    .where(and(eq(openVisits.business_account_id, business), eq(openVisits.id, id)));
}

export async function setOpenReason(tx: DbOrTx, business: number, id: number, reason: string): Promise<void> {
  await tx.update(openVisits).set({ reason, updated_at: new Date() }).where(and(eq(openVisits.business_account_id, business), eq(openVisits.id, id)));
}

/** The open visit a booked visit filled, locked (undefined: it filled none). */
export async function filledBy(tx: DbOrTx, business: number, appointmentId: number): Promise<OpenVisitRow | undefined> {
  const [row] = await tx.select().from(openVisits)
    .where(and(eq(openVisits.business_account_id, business), eq(openVisits.appointment_id, appointmentId), eq(openVisits.state, 'filled'))).for('update');
  return row;
}

/** A filled open visit open again (its booking gone), with its day, window and length now and why. */
export async function reopen(
  tx: DbOrTx, business: number, id: number, values: { date: string; window_start: number; window_end: number; duration_minutes: number; reason: string },
): Promise<OpenVisitRow> {
  const [row] = await tx.update(openVisits).set({ ...values, state: 'open', appointment_id: null, updated_at: new Date() })
    .where(and(eq(openVisits.business_account_id, business), eq(openVisits.id, id))).returning();
  return row;
}

/** Removes open visits (state removed, with why); answers how many. */
export async function removeOpenVisits(tx: DbOrTx, business: number, ids: readonly number[], reason: string): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx.update(openVisits).set({ state: 'removed', reason, updated_at: new Date() })
    .where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, [...ids]), eq(openVisits.state, 'open'))).returning({ id: openVisits.id });
  return rows.length;
}

/** Forgets occurrences so they are generated again (a plan changed: its future open visits are made anew). */
export async function deleteOccurrences(tx: DbOrTx, business: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(openVisits).where(and(eq(openVisits.business_account_id, business), inArray(openVisits.id, [...ids])));
}

/** Occurrences of the plans in [from, to] (every state), with the booked visit's state when filled. */
export async function occurrencesOf(db: DbOrTx, business: number, planIds: readonly number[], from: string, to: string | null) {
  if (planIds.length === 0) return [];
  return db.select({ visit: openVisits, cancelledAt: appointments.cancelled_at, startsAt: appointments.starts_at, visitState: appointments.visit_state })
    .from(openVisits).leftJoin(appointments, eq(appointments.id, openVisits.appointment_id))
    .where(and(
      eq(openVisits.business_account_id, business), inArray(openVisits.care_plan_id, [...planIds]), gte(openVisits.date, from),
      to === null ? undefined : lte(openVisits.date, to),
    ));
}

/** A client's open visits in [from, to]. */
export function clientOpenVisits(db: DbOrTx, business: number, clientId: number, from: string, to: string): Promise<OpenVisitRow[]> {
  return db.select().from(openVisits).where(and(
    eq(openVisits.business_account_id, business), eq(openVisits.client_id, clientId), eq(openVisits.state, 'open'),
    gte(openVisits.date, from), lte(openVisits.date, to),
  ));
}

/** A client's booked care-plan visits in [from, to] still to come: not started, not cancelled. */
export async function clientPlanBookings(db: DbOrTx, business: number, clientId: number, from: string, to: string): Promise<{ openVisitId: number; appointmentId: number }[]> {
  const rows = await db.select({ openVisitId: openVisits.id, appointmentId: appointments.id }).from(openVisits)
    .innerJoin(appointments, eq(appointments.id, openVisits.appointment_id))
    .where(and(
      eq(openVisits.business_account_id, business), eq(openVisits.client_id, clientId), eq(openVisits.state, 'filled'),
      gte(openVisits.date, from), lte(openVisits.date, to), isNull(appointments.cancelled_at), eq(appointments.visit_state, 'not_started'),
      sql`${appointments.starts_at} > now()`,
    ));
  return rows;
}

/**
 * The clients' booked visits (not cancelled) starting in [from, to): what a plan's occurrence must not double, and
 * who already serves them.
 */
export function bookedVisitsOf(db: DbOrTx, business: number, clientIds: readonly number[], from: Date, to: Date) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db.select({
    id: appointments.id, clientId: appointments.client_id, typeId: appointments.appointment_type_id, practitionerId: appointments.practitioner_id,
    startsAt: appointments.starts_at, endsAt: appointments.ends_at,
  }).from(appointments).where(and(
    eq(appointments.business_account_id, business), inArray(appointments.client_id, [...clientIds]), isNull(appointments.cancelled_at),
    sql`${appointments.starts_at} >= ${from}`, sql`${appointments.starts_at} < ${to}`,
  ));
}

// Absences and holidays

export function listAbsences(db: DbOrTx, business: number, clientId: number): Promise<AbsenceRow[]> {
  return db.select().from(clientAbsences).where(and(eq(clientAbsences.business_account_id, business), eq(clientAbsences.client_id, clientId)))
    .orderBy(desc(clientAbsences.starts_on), desc(clientAbsences.id));
}

export function absencesBetween(db: DbOrTx, business: number, from: string, to: string): Promise<AbsenceRow[]> {
  return db.select().from(clientAbsences).where(and(
    eq(clientAbsences.business_account_id, business), lte(clientAbsences.starts_on, to), gte(clientAbsences.ends_on, from),
  ));
}

export async function findAbsence(db: DbOrTx, business: number, id: number): Promise<AbsenceRow | undefined> {
  const [row] = await db.select().from(clientAbsences).where(and(eq(clientAbsences.business_account_id, business), eq(clientAbsences.id, id)));
  return row;
}

export async function insertAbsence(tx: DbOrTx, values: typeof clientAbsences.$inferInsert): Promise<AbsenceRow> {
  const [row] = await tx.insert(clientAbsences).values(values).returning();
  return row;
}

export async function deleteAbsence(tx: DbOrTx, business: number, id: number): Promise<void> {
  await tx.delete(clientAbsences).where(and(eq(clientAbsences.business_account_id, business), eq(clientAbsences.id, id)));
}

export function listHolidays(db: DbOrTx, business: number, from?: string, to?: string): Promise<HolidayRow[]> {
  return db.select().from(publicHolidays).where(and(
    eq(publicHolidays.business_account_id, business), from ? gte(publicHolidays.date, from) : undefined, to ? lte(publicHolidays.date, to) : undefined,
  )).orderBy(asc(publicHolidays.date));
}

export async function findHoliday(db: DbOrTx, business: number, id: number): Promise<HolidayRow | undefined> {
  const [row] = await db.select().from(publicHolidays).where(and(eq(publicHolidays.business_account_id, business), eq(publicHolidays.id, id)));
  return row;
}

/** Inserts a holiday; undefined when the date is one already. */
export async function insertHoliday(tx: DbOrTx, business: number, date: string, name: string): Promise<HolidayRow | undefined> {
  const [row] = await tx.insert(publicHolidays).values({ business_account_id: business, date, name })
    .onConflictDoNothing({ target: [publicHolidays.business_account_id, publicHolidays.date] }).returning();
  return row;
}

export async function deleteHoliday(tx: DbOrTx, business: number, id: number): Promise<void> {
  await tx.delete(publicHolidays).where(and(eq(publicHolidays.business_account_id, business), eq(publicHolidays.id, id)));
}

// Allocations

export async function insertAllocation(tx: DbOrTx, values: typeof carePlanAllocations.$inferInsert): Promise<AllocationRow> {
  const [row] = await tx.insert(carePlanAllocations).values(values).returning();
  return row;
}

export async function findAllocation(db: DbOrTx, business: number, id: number, lock = false): Promise<AllocationRow | undefined> {
  const query = db.select().from(carePlanAllocations).where(and(eq(carePlanAllocations.business_account_id, business), eq(carePlanAllocations.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function allocationOfJob(db: DbOrTx, jobId: number): Promise<AllocationRow | undefined> {
  const [row] = await db.select().from(carePlanAllocations).where(eq(carePlanAllocations.job_id, jobId));
  return row;
}

export async function updateAllocation(
  tx: DbOrTx, id: number, values: { status?: AllocationStatus; message?: string | null; result?: Record<string, unknown>; job_id?: number; generated?: number },
): Promise<AllocationRow> {
  const [row] = await tx.update(carePlanAllocations).set({ ...values, updated_at: new Date() }).where(eq(carePlanAllocations.id, id)).returning();
  return row;
}

/** A running allocation of the business, if any. */
export async function runningAllocation(db: DbOrTx, business: number): Promise<AllocationRow | undefined> {
  const [row] = await db.select().from(carePlanAllocations)
    .where(and(eq(carePlanAllocations.business_account_id, business), eq(carePlanAllocations.status, 'RUNNING')));
  return row;
}

/** What placing a client's visit reads of them: point, clock, availability and preferred/excluded practitioners. */
export interface PlanningClient {
  id: number; name: string; lat: number | null; lng: number | null; timeZone: string | null;
  availability: AvailabilityEntry[]; preferred: number[]; excluded: number[];
}

export async function planningClients(db: DbOrTx, business: number, ids: readonly number[]): Promise<Map<number, PlanningClient>> {
  if (ids.length === 0) return new Map();
  const idsOf = (kind: 'preferred' | 'excluded') => sql<number[]>`coalesce((SELECT array_agg(pp.practitioner_id ORDER BY pp.practitioner_id)
    FROM client_practitioner_preferences pp WHERE pp.client_id = ${clients.id} AND pp.business_account_id = ${clients.business_account_id} AND pp.kind = ${kind}), '{}')`;
  const rows = await db.select({
    id: clients.id, name: clientName, lat: clients.lat, lng: clients.lng, timeZone: clients.time_zone, availability: clients.availability,
    preferred: idsOf('preferred'), excluded: idsOf('excluded'),
  }).from(clients).where(and(eq(clients.business_account_id, business), inArray(clients.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}
