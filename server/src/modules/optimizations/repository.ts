// Optimisation runs' SQL: the day's visits as the optimiser reads them, the clients' usual practitioners, unfinished
// runs of a day, the run row, and the routes an applied proposal writes (the visits on them are the appointments
// module's to write). Every query is scoped to the business passed first.
import { and, asc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { appointmentTypes, appointments, practitioners, routes, type Place, type RouteLeg, type RouteMetrics, type RouteStop } from '../../db/schema';
import { syncJobs } from '../../db/schema-sync';
import type { JobRow } from '../../jobs/queue';
import type { DayBounds } from '../schedule';

export type RunRow = JobRow;

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

/** An appointment of the business, locked for the rest of the transaction (a move writes it). */
export async function lockAppointmentRow(tx: DbOrTx, businessAccountId: number, id: number) {
  const [row] = await tx.select().from(appointments)
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id))).for('update');
  return row;
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

/** Waits for any other transaction creating a run of the same business, so the overlap and queue checks cannot race. */
export async function lockBusinessForRuns(tx: DbOrTx, businessAccountId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`optimize:${businessAccountId}`}))`);
}

/** How many of the business's runs wait for a worker. */
export async function waitingRunCount(db: DbOrTx, businessAccountId: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(syncJobs).where(and(
    eq(syncJobs.business_account_id, businessAccountId), eq(syncJobs.kind, 'OPTIMIZE'), eq(syncJobs.status, 'PENDING'),
  ));
  return row.count;
}

/** The business's runs that have not finished and plan any day from `first` to `last`. */
export function unfinishedRuns(db: DbOrTx, businessAccountId: number, first: string, last = first): Promise<RunRow[]> {
  return db.select().from(syncJobs).where(and(
    eq(syncJobs.business_account_id, businessAccountId), eq(syncJobs.kind, 'OPTIMIZE'),
    lte(syncJobs.start_date, last), gte(sql`coalesce(${syncJobs.end_date}, ${syncJobs.start_date})`, first),
    inArray(syncJobs.status, ['PENDING', 'INPROGRESS']),
  )).orderBy(asc(syncJobs.id));
}

export async function findRun(db: DbOrTx, businessAccountId: number, id: number, lock = false): Promise<RunRow | undefined> {
  const query = db.select().from(syncJobs)
    .where(and(eq(syncJobs.id, id), eq(syncJobs.kind, 'OPTIMIZE'), eq(syncJobs.business_account_id, businessAccountId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
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

export interface NewRoute {
  practitionerId: number;
  startPlace: Place;
  endPlace: Place;
  stops: RouteStop[];
  returnLeg: RouteLeg | null;
  metrics: RouteMetrics;
}

/**
 * Replaces the practitioners' routes of the day with `newRoutes` (their visits' route_id is cleared by the foreign
 * key when the old route goes) and answers the new routes' ids by practitioner.
 */
export async function replaceRoutes(
  tx: DbOrTx, businessAccountId: number, day: string, practitionerIds: readonly number[], newRoutes: readonly NewRoute[],
  applied: { jobId: number; userId: number; name: string },
): Promise<Map<number, number>> {
  if (practitionerIds.length) {
    await tx.delete(routes).where(and(
      eq(routes.business_account_id, businessAccountId), eq(routes.day, day), inArray(routes.practitioner_id, [...practitionerIds]),
    ));
  }
  if (newRoutes.length === 0) return new Map();
  const rows = await tx.insert(routes).values(newRoutes.map((route) => ({
    business_account_id: businessAccountId,
    practitioner_id: route.practitionerId,
    day,
    start_place: route.startPlace,
    end_place: route.endPlace,
    stops: route.stops,
    return_leg: route.returnLeg,
    metrics: route.metrics,
    optimization_job_id: applied.jobId,
    applied_by_user_id: applied.userId,
    applied_by_name: applied.name,
  }))).returning({ id: routes.id, practitionerId: routes.practitioner_id });
  return new Map(rows.map((row) => [row.practitionerId, row.id]));
}

/** A route row as a run's result keeps it, to restore it when the run is undone (its instants as ISO strings). */
export type SavedRoute = Omit<typeof routes.$inferSelect, 'applied_at' | 'stale_at'> & { applied_at: string; stale_at: string | null };

/** The practitioners' routes of the day as they are (before Apply replaces them). */
export async function savedRoutesOfDay(tx: DbOrTx, businessAccountId: number, day: string, practitionerIds: readonly number[]): Promise<SavedRoute[]> {
  if (practitionerIds.length === 0) return [];
  const rows = await tx.select().from(routes).where(and(
    eq(routes.business_account_id, businessAccountId), eq(routes.day, day), inArray(routes.practitioner_id, [...practitionerIds]),
  )).orderBy(asc(routes.id));
  return rows.map((row) => ({ ...row, applied_at: row.applied_at.toISOString(), stale_at: row.stale_at?.toISOString() ?? null }));
}

/**
 * Removes the routes a run wrote (their visits' route_id is cleared by the foreign key) and puts back the routes it
 * replaced, with their own ids; answers the run's routes that had been marked stale since, by practitioner and day.
 */
export async function restoreRoutes(
  tx: DbOrTx, businessAccountId: number, jobId: number, saved: readonly SavedRoute[],
): Promise<{ practitionerId: number; day: string }[]> {
  const removed = await tx.delete(routes).where(and(eq(routes.business_account_id, businessAccountId), eq(routes.optimization_job_id, jobId)))
    .returning({ practitionerId: routes.practitioner_id, day: routes.day, staleAt: routes.stale_at });
  if (saved.length) {
    await tx.insert(routes).values(saved.map((route) => ({
      ...route, business_account_id: businessAccountId, applied_at: new Date(route.applied_at), stale_at: route.stale_at === null ? null : new Date(route.stale_at),
    })));
  }
  return removed.filter((route) => route.staleAt !== null).map(({ practitionerId, day }) => ({ practitionerId, day }));
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
