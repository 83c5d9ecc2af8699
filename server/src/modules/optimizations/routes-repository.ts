// Applied routes' SQL: a day's routes with their practitioners' names and colours, removing a route, and dropping a
// visit's stop from its route. Every query is scoped to the business passed first.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { practitioners, routes, type RouteLeg, type RouteStop } from '../../db/schema';
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
