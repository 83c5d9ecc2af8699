// The SQL behind a practitioner's days of travel: the visits of a range of days (each with its day in the business's
// time zone, worked out by the database) and the routes applied to those days. Every query is scoped to the business.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { Place, RouteLeg, RouteStop } from '../../db/schema';

export interface DaysQuery {
  startDate: string;
  endDate: string;
  /** Empty: every practitioner's. */
  practitionerIds: readonly number[];
  /** Only these practitioner-days (`${practitionerId} ${day}`); absent: every one in the range. */
  onlyDays?: ReadonlySet<string>;
}

export interface LegVisit {
  id: number;
  practitionerId: number;
  /** yyyy-MM-dd in the business's time zone. */
  day: string;
  clientId: number | null;
  clientName: string | null;
  appointmentTypeId: number | null;
  businessLocationId: number | null;
  startsAt: Date;
  endsAt: Date;
  arriveAt: Date | null;
  /** The visit's point: the appointment's own, else the client's (as the optimiser reads it); null when neither. */
  lat: number | null;
  lng: number | null;
}

export interface LegRoute { practitionerId: number; day: string; startPlace: Place | null; endPlace: Place | null; stops: RouteStop[]; returnLeg: RouteLeg | null }

const idsIn = (column: SQL, ids: readonly number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

interface VisitRow {
  id: number; practitioner_id: number; day: string; client_id: number | null; client_name: string | null;
  appointment_type_id: number | null; business_location_id: number | null;
  starts_at: Date | string; ends_at: Date | string; arrive_at: Date | string | null; lat: string | number | null; lng: string | number | null;
}

/** The visits that are not cancelled starting on the days, by practitioner, day and arrival. */
export async function visitsOfDays(db: Db, businessAccountId: number, query: DaysQuery): Promise<LegVisit[]> {
  const rows = await queryRows<VisitRow>(db, sql`
    SELECT a.id, a.practitioner_id, to_char((a.starts_at AT TIME ZONE b.time_zone)::date, 'YYYY-MM-DD') AS day,
           a.client_id, btrim(c.first_name || ' ' || c.last_name) AS client_name, a.appointment_type_id, a.business_location_id,
           a.starts_at, a.ends_at, a.arrive_at,
           CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lat ELSE c.lat END AS lat,
           CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lng ELSE c.lng END AS lng
    FROM appointments a
    JOIN business_accounts b ON b.id = a.business_account_id
    LEFT JOIN clients c ON c.id = a.client_id AND c.business_account_id = a.business_account_id
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
      AND a.starts_at >= ((${query.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
      AND a.starts_at < ((${query.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)
      ${idsIn(sql`a.practitioner_id`, query.practitionerIds)}
    ORDER BY a.practitioner_id, a.starts_at, a.id`);
  const instant = (value: Date | string) => new Date(value);
  return rows.map((row) => ({
    id: row.id, practitionerId: row.practitioner_id, day: row.day, clientId: row.client_id, clientName: row.client_name,
    appointmentTypeId: row.appointment_type_id, businessLocationId: row.business_location_id,
    startsAt: instant(row.starts_at), endsAt: instant(row.ends_at), arriveAt: row.arrive_at === null ? null : instant(row.arrive_at),
    lat: row.lat === null ? null : Number(row.lat), lng: row.lng === null ? null : Number(row.lng),
  }));
}

interface RouteRow { practitioner_id: number; day: string; start_place: Place | null; end_place: Place | null; stops: RouteStop[]; return_leg: RouteLeg | null }

/** The routes applied to the days that still describe them (not stale). */
export async function routesOfDays(db: Db, businessAccountId: number, query: DaysQuery): Promise<LegRoute[]> {
  const rows = await queryRows<RouteRow>(db, sql`
    SELECT r.practitioner_id, to_char(r.day, 'YYYY-MM-DD') AS day, r.start_place, r.end_place, r.stops, r.return_leg
    FROM routes r
    WHERE r.business_account_id = ${businessAccountId} AND r.stale_at IS NULL
      AND r.day BETWEEN ${query.startDate}::date AND ${query.endDate}::date
      ${idsIn(sql`r.practitioner_id`, query.practitionerIds)}`);
  return rows.map((row) => ({
    practitionerId: row.practitioner_id, day: row.day, startPlace: row.start_place, endPlace: row.end_place, stops: row.stops, returnLeg: row.return_leg,
  }));
}

/** A practitioner's route of a day as the day's travel names it: which one, and whether a change has made it stale. */
export interface RouteMark { id: number; practitionerId: number; stale: boolean }

/** The routes of a day, stale or not, by id (of a practitioner's several, the last is the newest). Empty ids: everyone's. */
export async function routeMarksOfDay(db: Db, businessAccountId: number, day: string, practitionerIds: readonly number[]): Promise<RouteMark[]> {
  const rows = await queryRows<{ id: number; practitioner_id: number; stale: boolean }>(db, sql`
    SELECT r.id, r.practitioner_id, r.stale_at IS NOT NULL AS stale
    FROM routes r
    WHERE r.business_account_id = ${businessAccountId} AND r.day = ${day}::date
      ${idsIn(sql`r.practitioner_id`, practitionerIds)}
    ORDER BY r.id`);
  return rows.map((row) => ({ id: row.id, practitionerId: row.practitioner_id, stale: row.stale }));
}
