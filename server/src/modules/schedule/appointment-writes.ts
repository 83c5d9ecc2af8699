// The appointments table's writes: the schedule module is its one writer (with routes and visit_steps). The modules
// built on the schedule ask for them: appointments (an arrival time, "Keep this time"), clients (a corrected pin moves
// their upcoming visits), optimizations (an applied proposal puts visits on its routes, a visit taken off its route or
// moved by hand) and sync (an import's visits, its sweep, an export's write-back). Each caller records the change-log
// entries itself, in the same transaction.
import { and, asc, eq, gte, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bulkInsert, reserveIds } from '../../db/bulk';
import { appointments } from '../../db/schema';

/**
 * Moves the client's visits that have not ended and are not cancelled to the client's new point; answers each moved
 * visit's id and its previous point.
 */
export async function moveUpcomingVisits(
  db: DbOrTx, clientId: number, point: { lat: number; lng: number }, now = new Date(),
): Promise<{ id: number; lat: number | null; lng: number | null }[]> {
  const moved = await db.select({ id: appointments.id, lat: appointments.lat, lng: appointments.lng }).from(appointments)
    .where(and(eq(appointments.client_id, clientId), isNull(appointments.cancelled_at), gte(appointments.ends_at, now),
      or(isNull(appointments.lat), isNull(appointments.lng), sql`${appointments.lat} <> ${point.lat}`, sql`${appointments.lng} <> ${point.lng}`)))
    .for('update');
  if (moved.length) {
    await db.update(appointments).set({ lat: point.lat, lng: point.lng, updated_at: now }).where(inArray(appointments.id, moved.map((row) => row.id)));
  }
  return moved;
}

export interface RoutedVisitUpdate { id: number; routeId: number | null; arriveAt: string | null; practitionerId: number }

/** Puts visits on their routes (or none) with their new arrival (and practitioner), in one statement. */
export async function updateRoutedVisits(tx: DbOrTx, businessAccountId: number, updates: readonly RoutedVisitUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const rows = updates.map((update) => ({ id: update.id, route_id: update.routeId, arrive_at: update.arriveAt, practitioner_id: update.practitionerId }));
  await tx.execute(sql`
    UPDATE appointments a
    SET route_id = u.route_id, arrive_at = u.arrive_at, practitioner_id = u.practitioner_id, updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS u(id integer, route_id integer, arrive_at timestamptz, practitioner_id integer)
    WHERE a.id = u.id AND a.business_account_id = ${businessAccountId}`);
}

/** An appointment of the business, locked for the rest of the transaction (a move writes it). */
export async function lockVisitRow(tx: DbOrTx, businessAccountId: number, id: number) {
  const [row] = await tx.select().from(appointments)
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id))).for('update');
  return row;
}

/** Locks an appointment of the business before taking it off its route; its route (null: none), or undefined when there is no such appointment. */
export async function lockAppointmentRoute(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<{ routeId: number | null } | undefined> {
  const [row] = await db.select({ routeId: appointments.route_id }).from(appointments)
    .where(and(eq(appointments.id, appointmentId), eq(appointments.business_account_id, businessAccountId))).for('update');
  return row;
}

/** Takes the visit off its route (its arrival time stays as the route set it). */
export async function clearAppointmentRoute(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<void> {
  await db.update(appointments).set({ route_id: null })
    .where(and(eq(appointments.id, appointmentId), eq(appointments.business_account_id, businessAccountId)));
}

/**
 * The other halves of a double-handed visit, locked: the client's other bookings at the same start with another
 * practitioner, not cancelled (the rule book's pairing, schedule/rules.ts), with their practitioners' names.
 */
export async function lockPartners(
  tx: DbOrTx, businessAccountId: number, visit: { id: number; client_id: number | null; starts_at: Date; practitioner_id: number; cancelled_at: Date | null },
) {
  if (visit.client_id === null || visit.cancelled_at !== null) return [];
  return tx.select({
    id: appointments.id, practitioner_id: appointments.practitioner_id, starts_at: appointments.starts_at, ends_at: appointments.ends_at,
    arrive_at: appointments.arrive_at, agreed_starts_at: appointments.agreed_starts_at, route_id: appointments.route_id,
    practitionerName: sql<string>`(SELECT btrim(p.first_name || ' ' || p.last_name) FROM practitioners p WHERE p.id = ${appointments.practitioner_id})`,
  }).from(appointments)
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.client_id, visit.client_id),
      eq(appointments.starts_at, visit.starts_at), ne(appointments.practitioner_id, visit.practitioner_id), ne(appointments.id, visit.id),
      isNull(appointments.cancelled_at)))
    .orderBy(asc(appointments.id)).for('update', { of: appointments });
}

/** Sets a visit's arrival time (the arrival-time editor). */
export async function writeArrival(tx: DbOrTx, id: number, arriveAt: Date): Promise<void> {
  await tx.update(appointments).set({ arrive_at: arriveAt, updated_at: new Date() }).where(eq(appointments.id, id));
}

/** "Keep this time": whether an optimisation keeps the visit's arrival and practitioner. */
export async function writeArrivalLock(tx: DbOrTx, id: number, locked: boolean): Promise<void> {
  await tx.update(appointments).set({ arrival_locked: locked, updated_at: new Date() }).where(eq(appointments.id, id));
}

/** A visit moved by hand to another practitioner or time (a new time is agreed with the client: agreed_starts_at). */
export interface VisitMove { practitioner_id: number; starts_at: Date; ends_at: Date; arrive_at: Date | null; agreed_starts_at?: Date }

/** Writes a move by hand: practitioner, times and arrival. */
export async function moveAppointment(tx: DbOrTx, businessAccountId: number, id: number, move: VisitMove): Promise<void> {
  await tx.update(appointments).set({ ...move, updated_at: new Date() })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id)));
}

/** What an import writes of a visit: the PMS's appointment, at its client's place. */
export type ImportedVisit = Omit<typeof appointments.$inferInsert, 'id' | 'business_account_id' | 'created_at' | 'updated_at' | 'route_id'>;

const IMPORTED_VISIT_COLUMNS = {
  id: 'integer', business_account_id: 'integer', client_id: 'integer', practitioner_id: 'integer', appointment_type_id: 'integer',
  business_location_id: 'integer', starts_at: 'timestamptz', ends_at: 'timestamptz', arrive_at: 'timestamptz', agreed_starts_at: 'timestamptz', notes: 'text',
  address_1: 'text', address_2: 'text', city: 'text', state: 'text', post_code: 'text', country: 'text',
  lat: 'double precision', lng: 'double precision', cancelled_at: 'timestamptz',
};

/**
 * A page of an import's visits, in its transaction (sync): the changed ones row by row, the new ones in one statement.
 * Answers the new visits' ids, in the order of `fresh`.
 */
export async function upsertImportedVisits(
  tx: DbOrTx, businessAccountId: number, { changed, fresh }: { changed: { id: number; values: ImportedVisit }[]; fresh: ImportedVisit[] },
): Promise<number[]> {
  for (const { id, values } of changed) await tx.update(appointments).set({ ...values, updated_at: new Date() }).where(eq(appointments.id, id));
  if (fresh.length === 0) return [];
  const ids = await reserveIds(tx, 'appointments', fresh.length);
  await bulkInsert(tx, 'appointments', IMPORTED_VISIT_COLUMNS, fresh.map((values, index) => ({ ...values, id: ids[index], business_account_id: businessAccountId })));
  return ids;
}

/** Cancels, at `at`, visits whose appointment the PMS no longer lists (an import's sweep). */
export async function cancelVanishedVisits(tx: DbOrTx, ids: number[], at: Date): Promise<void> {
  await tx.update(appointments).set({ cancelled_at: at, updated_at: at }).where(inArray(appointments.id, ids));
}

/**
 * Takes back what the PMS answered an export or a booking's write (the start, end and practitioner it now has, and a
 * booking's notes with its reference) onto the visit.
 */
export async function writeBackExportedVisit(
  tx: DbOrTx, id: number, answered: { starts_at: Date; ends_at: Date; practitioner_id: number; notes?: string | null },
): Promise<void> {
  await tx.update(appointments).set({ ...answered, updated_at: new Date() }).where(eq(appointments.id, id));
}

/** A visit booked in Rounds (bookings): at its client's place, agreed to its start; answers its id. */
export type BookedVisit = Pick<typeof appointments.$inferInsert,
  'client_id' | 'practitioner_id' | 'appointment_type_id' | 'business_location_id' | 'starts_at' | 'ends_at' | 'notes'
  | 'address_1' | 'address_2' | 'city' | 'state' | 'post_code' | 'country' | 'lat' | 'lng'>;

export async function insertBookedVisit(tx: DbOrTx, businessAccountId: number, visit: BookedVisit): Promise<number> {
  const [row] = await tx.insert(appointments)
    .values({ ...visit, business_account_id: businessAccountId, arrive_at: visit.starts_at, agreed_starts_at: visit.starts_at })
    .returning({ id: appointments.id });
  return row.id;
}

/** Cancels a visit at `at` and takes it off its route (the caller drops its stop: dropStopFromRoute). */
export async function cancelAppointment(tx: DbOrTx, businessAccountId: number, id: number, at: Date): Promise<void> {
  await tx.update(appointments).set({ cancelled_at: at, route_id: null, updated_at: at })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id)));
}

/** Removes a booking that never reached the PMS (its route stop dropped first by the caller). */
export async function deleteBookedVisit(tx: DbOrTx, businessAccountId: number, id: number): Promise<void> {
  await tx.delete(appointments).where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id)));
}

/** Takes the PMS's version of a visit back (a discarded reschedule or cancellation): its times, practitioner and cancellation. */
export async function writeVisitFromPms(
  tx: DbOrTx, businessAccountId: number, id: number,
  values: { starts_at: Date; ends_at: Date; practitioner_id: number; cancelled_at: Date | null },
): Promise<void> {
  await tx.update(appointments).set({ ...values, arrive_at: values.starts_at, agreed_starts_at: values.starts_at, updated_at: new Date() })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id)));
}
