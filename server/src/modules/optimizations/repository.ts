// Optimisation runs' SQL: the day's visits as the optimiser reads them and the clients' usual practitioners (the routes
// an applied proposal writes, and the visits on them, are the schedule module's to write; the runs themselves are
// runs-repository.ts's). Every query is scoped to the business passed first.
import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { appointmentTypes, appointments, practitioners, users } from '../../db/schema';
import type { DayBounds } from '../schedule';

/** Which of `ids` are practitioners of the business. */
export async function ownPractitionerIds(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: practitioners.id }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, [...ids])));
  return new Set(rows.map((row) => row.id));
}

/** Active practitioners with at least one visit that is not cancelled in the day, by name. */
export async function practitionersWithVisits(db: DbOrTx, businessAccountId: number, day: DayBounds): Promise<number[]> {
  const rows = await db.selectDistinct({ id: practitioners.id, first: practitioners.first_name, last: practitioners.last_name })
    .from(practitioners)
    .innerJoin(appointments, eq(appointments.practitioner_id, practitioners.id))
    .where(and(
      eq(practitioners.business_account_id, businessAccountId), eq(practitioners.active, true),
      eq(appointments.business_account_id, businessAccountId), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, day.from), lt(appointments.starts_at, day.to),
    ))
    .orderBy(asc(practitioners.first_name), asc(practitioners.last_name), asc(practitioners.id));
  return rows.map((row) => row.id);
}

/**
 * Each client's usual practitioner: the practitioner of their latest visit before the day that was not cancelled,
 * when that practitioner is one of `practitionerIds`.
 */
export async function usualPractitioners(
  db: DbOrTx, businessAccountId: number, clientIds: readonly number[], before: Date, practitionerIds: readonly number[],
): Promise<Map<number, number>> {
  if (clientIds.length === 0 || practitionerIds.length === 0) return new Map();
  const rows = await queryRows<{ client_id: number; practitioner_id: number }>(db, sql`
    SELECT DISTINCT ON (client_id) client_id, practitioner_id
    FROM appointments
    WHERE business_account_id = ${businessAccountId} AND client_id IN ${[...clientIds]} AND cancelled_at IS NULL
      AND starts_at < ${before.toISOString()}::timestamptz AND starts_at > ${before.toISOString()}::timestamptz - interval '400 days'
    ORDER BY client_id, starts_at DESC, id DESC`);
  const allowed = new Set(practitionerIds);
  return new Map(rows.filter((row) => allowed.has(row.practitioner_id)).map((row) => [row.client_id, row.practitioner_id]));
}

export async function appointmentTypeNames(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: appointmentTypes.id, name: appointmentTypes.name }).from(appointmentTypes)
    .where(and(eq(appointmentTypes.business_account_id, businessAccountId), inArray(appointmentTypes.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The colour each of the practitioners is shown in (practitioner_color(), migration 0042), for lanes and maps. */
export async function practitionerColors(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: practitioners.id, color: sql<string>`practitioner_color(${practitioners.id})` })
    .from(practitioners).where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row.color]));
}

export async function practitionerNames(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: practitioners.id, name: sql<string>`btrim(${practitioners.first_name} || ' ' || ${practitioners.last_name})` })
    .from(practitioners).where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The role or profession of each of `ids` (the PMS's designation; null when it gives none), for a proposal's changes. */
export async function practitionerProfessions(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: practitioners.id, profession: practitioners.profession })
    .from(practitioners).where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row.profession?.trim() || null]));
}

/** A visit as Apply left it, to tell at Undo whether it changed since. */
export interface WrittenVisit {
  id: number;
  updated_at: string;
  starts_at: string;
  ends_at: string;
  practitioner_id: number;
  arrive_at: string | null;
  route_id: number | null;
  cancelled_at: string | null;
  arrival_locked: boolean;
}

/** The visits as they are now (locked for the rest of the transaction); a visit deleted since is absent. */
export async function writtenVisits(tx: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<WrittenVisit[]> {
  if (ids.length === 0) return [];
  const rows = await tx.select({
    id: appointments.id, updated_at: appointments.updated_at, starts_at: appointments.starts_at, ends_at: appointments.ends_at,
    practitioner_id: appointments.practitioner_id, arrive_at: appointments.arrive_at, route_id: appointments.route_id,
    cancelled_at: appointments.cancelled_at, arrival_locked: appointments.arrival_locked,
  }).from(appointments).where(and(eq(appointments.business_account_id, businessAccountId), inArray(appointments.id, [...ids])))
    .orderBy(asc(appointments.id)).for('update');
  return rows.map((row) => ({
    ...row, updated_at: row.updated_at.toISOString(), starts_at: row.starts_at.toISOString(), ends_at: row.ends_at.toISOString(),
    arrive_at: row.arrive_at?.toISOString() ?? null, cancelled_at: row.cancelled_at?.toISOString() ?? null,
  }));
}

/** The role of the user who started a run (null: unknown, the user gone), whose words its problems are in. */
export async function roleOfUser(db: DbOrTx, businessAccountId: number, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await db.select({ role: users.role }).from(users).where(and(eq(users.id, userId), eq(users.business_account_id, businessAccountId)));
  return row?.role ?? null;
}
