// Applied routes' SQL (the schedule module is the routes table's one writer): a day's routes with their practitioners'
// names and colours, replacing them with an applied proposal's and restoring them at its Undo, removing a route,
// dropping a visit's stop from its route and marking routes stale. Every query is scoped to the business passed first.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { practitioners, routes, type Place, type RouteLeg, type RouteMetrics, type RouteStop } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type RouteRow = typeof routes.$inferSelect & { practitioner_name: string; color: string };

const routeColumns = {
  id: routes.id,
  business_account_id: routes.business_account_id,
  practitioner_id: routes.practitioner_id,
  day: routes.day,
  start_place: routes.start_place,
  end_place: routes.end_place,
  stops: routes.stops,
  return_leg: routes.return_leg,
  metrics: routes.metrics,
  optimization_job_id: routes.optimization_job_id,
  applied_by_user_id: routes.applied_by_user_id,
  applied_by_name: routes.applied_by_name,
  applied_at: routes.applied_at,
  stale_at: routes.stale_at,
  practitioner_name: sql<string>`btrim(${practitioners.first_name} || ' ' || ${practitioners.last_name})`,
  color: sql<string>`practitioner_color(${practitioners.id})`,
};

/** The day's routes by practitioner name; `practitionerIds` (when given) limits them to those practitioners'. */
export function listRoutesOfDay(db: DbOrTx, businessAccountId: number, day: string, practitionerIds: number[] | null): Promise<RouteRow[]> {
  return db.select(routeColumns).from(routes).innerJoin(practitioners, eq(practitioners.id, routes.practitioner_id))
    .where(and(
      eq(routes.business_account_id, businessAccountId), eq(routes.day, day),
      practitionerIds ? inArray(routes.practitioner_id, practitionerIds.length ? practitionerIds : [0]) : undefined,
    ))
    .orderBy(asc(practitioners.first_name), asc(practitioners.last_name), asc(routes.id));
}

/** Removes a route (its visits' route_id is cleared by the foreign key); false when the business has no such route. */
export async function deleteRouteRow(db: DbOrTx, businessAccountId: number, id: number): Promise<boolean> {
  const deleted = await db.delete(routes).where(and(eq(routes.id, id), eq(routes.business_account_id, businessAccountId))).returning({ id: routes.id });
  return deleted.length > 0;
}

/**
 * Drops a visit's stop from its route and marks the route stale (its legs and figures no longer describe the day); a
 * route left without stops is removed. The visit's own route_id is the appointments module's to clear.
 */
export async function dropStopFromRoute(db: DbOrTx, businessAccountId: number, appointmentId: number, routeId: number): Promise<void> {
  const [route] = await db.select({ stops: routes.stops }).from(routes)
    .where(and(eq(routes.id, routeId), eq(routes.business_account_id, businessAccountId))).for('update');
  if (!route) return;
  const stops = route.stops.filter((stop) => stop.appointment_id !== appointmentId);
  if (stops.length === 0) await db.delete(routes).where(eq(routes.id, routeId));
  else await db.update(routes).set({ stops, stale_at: sql`coalesce(${routes.stale_at}, now())` }).where(eq(routes.id, routeId));
}

/** Writes a route's stops and return leg (a visit inserted into it by hand). */
export async function replaceRouteStops(db: DbOrTx, businessAccountId: number, routeId: number, stops: RouteStop[], returnLeg: RouteLeg | null): Promise<void> {
  await db.update(routes).set({ stops, return_leg: returnLeg }).where(and(eq(routes.id, routeId), eq(routes.business_account_id, businessAccountId)));
}

/** A practitioner's day a change touched: the day of `at` in the business's time zone. */
export interface DayTouch { practitionerId: number; at: Date }

/**
 * Marks stale (stale_at = now) the routes of the days touched that are not stale yet, and answers their ids. The day
 * of each instant is read in the business's time zone, as routes' days are.
 */
export async function markTouchedRoutesStale(db: DbOrTx, businessAccountId: number, touches: readonly DayTouch[]): Promise<number[]> {
  if (touches.length === 0) return [];
  const rows = JSON.stringify(touches.map((touch) => ({ practitioner_id: touch.practitionerId, at: touch.at.toISOString() })));
  const marked = await queryRows<{ id: number }>(db, sql`
    UPDATE routes r SET stale_at = now()
    FROM (
      SELECT DISTINCT t.practitioner_id, (t.at AT TIME ZONE b.time_zone)::date AS day
      FROM jsonb_to_recordset(${rows}::jsonb) AS t(practitioner_id integer, at timestamptz)
      JOIN business_accounts b ON b.id = ${businessAccountId}
    ) touched
    WHERE r.business_account_id = ${businessAccountId} AND r.practitioner_id = touched.practitioner_id AND r.day = touched.day
      AND r.stale_at IS NULL
    RETURNING r.id`);
  return marked.map((row) => row.id);
}

/** What a route says of its day in figures: whether it is stale, and its travel (legs from and to the places included). */
export interface RouteDay { practitionerId: number; day: string; staleAt: Date | null; travelSeconds: number; travelMetres: number }

/** The business's routes of the days from `from` to `to` (inclusive), without their stops. */
export async function listRouteDaysBetween(db: DbOrTx, businessAccountId: number, from: string, to: string): Promise<RouteDay[]> {
  const rows = await db.select({
    practitionerId: routes.practitioner_id, day: routes.day, staleAt: routes.stale_at,
    travelSeconds: sql<number>`coalesce((${routes.metrics}->>'travel_seconds')::float8, 0)`,
    travelMetres: sql<number>`coalesce((${routes.metrics}->>'travel_metres')::float8, 0)`,
  }).from(routes).where(and(eq(routes.business_account_id, businessAccountId), sql`${routes.day} BETWEEN ${from}::date AND ${to}::date`));
  return rows.map((row) => ({ ...row, travelSeconds: Number(row.travelSeconds), travelMetres: Number(row.travelMetres) }));
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
