// Nearby search's SQL: clients within a radius (a bounding box on the indexed lat/lng, then the great-circle
// distance), the client searched from, and an appointment type's length. Every query is scoped to the business.
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import type { AvailabilityEntry } from '../../db/schema';

/** The optimiser's earth radius (server/src/optimizer/travel/haversine.ts), so both measure the same distance. */
export const EARTH_RADIUS_M = 6_371_008.8;

export interface Origin { lat: number; lng: number }

/** The bounding box (degrees) holding every point within `radiusMetres` great-circle distance of `origin`. */
export function boundingBox(origin: Origin, radiusMetres: number) {
  const dLat = (radiusMetres / EARTH_RADIUS_M) * (180 / Math.PI);
  // The widest longitude span is at the latitude nearest a pole inside the box.
  const farthestLat = Math.min(89.999, Math.abs(origin.lat) + dLat);
  const dLng = Math.min(180, dLat / Math.cos((farthestLat * Math.PI) / 180));
  return { minLat: origin.lat - dLat, maxLat: origin.lat + dLat, minLng: origin.lng - dLng, maxLng: origin.lng + dLng };
}

export interface NearbyClientRow {
  client_id: number;
  name: string;
  suburb: string | null;
  lat: number;
  lng: number;
  distance_metres: number;
  tags: { id: number; name: string; color: string }[] | null;
}

/** The distance expression: haversine on the lat/lng of `alias` (c: the clients row), in metres. */
const distanceSql = (origin: Origin, alias = sql.raw('c')) => sql`(2 * ${EARTH_RADIUS_M}::float8 * asin(least(1, sqrt(
  power(sin(radians(${alias}.lat - ${origin.lat}::float8) / 2), 2)
  + cos(radians(${origin.lat}::float8)) * cos(radians(${alias}.lat)) * power(sin(radians(${alias}.lng - ${origin.lng}::float8) / 2), 2)))))`;

/**
 * The practitioners with a visit of the day (not cancelled) within the radius, each with the nearest one's distance.
 * A visit's point is its own, else its client's (as the optimiser reads it). The day's visits are found by the range
 * index; only their points are read.
 */
export async function practitionersWithVisitsNear(
  db: DbOrTx, businessAccountId: number, origin: Origin, radiusMetres: number, day: { from: Date; to: Date },
): Promise<Map<number, number>> {
  const box = boundingBox(origin, radiusMetres);
  const rows = await queryRows<{ practitioner_id: number; metres: number }>(db, sql`
    WITH v AS (
      SELECT a.practitioner_id,
        CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lat ELSE c.lat END AS lat,
        CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lng ELSE c.lng END AS lng
      FROM appointments a
      LEFT JOIN clients c ON c.id = a.client_id AND c.business_account_id = ${businessAccountId}
      WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
        AND a.starts_at >= ${day.from.toISOString()}::timestamptz AND a.starts_at < ${day.to.toISOString()}::timestamptz
    )
    SELECT v.practitioner_id, min(${distanceSql(origin, sql.raw('v'))}) AS metres
    FROM v
    WHERE v.lat BETWEEN ${box.minLat}::float8 AND ${box.maxLat}::float8 AND v.lng BETWEEN ${box.minLng}::float8 AND ${box.maxLng}::float8
    GROUP BY v.practitioner_id`);
  return new Map(rows.filter((row) => Number(row.metres) <= radiusMetres).map((row) => [row.practitioner_id, Number(row.metres)]));
}

/** The query of nearbyClients, for EXPLAIN in the decision record and the tests. */
export function nearbyClientsQuery(businessAccountId: number, origin: Origin, radiusMetres: number, limit: number) {
  const box = boundingBox(origin, radiusMetres);
  // A box crossing the antimeridian is not split: the business's clients are on one side of it in practice.
  return sql`
    WITH near AS (
      SELECT c.id, c.first_name, c.last_name, c.city, c.lat, c.lng, ${distanceSql(origin)} AS distance
      FROM clients c
      WHERE c.business_account_id = ${businessAccountId} AND c.lat IS NOT NULL AND c.lng IS NOT NULL
        AND c.lat BETWEEN ${box.minLat}::float8 AND ${box.maxLat}::float8
        AND c.lng BETWEEN ${box.minLng}::float8 AND ${box.maxLng}::float8
    ), nearest AS (
      SELECT * FROM near WHERE distance <= ${radiusMetres}::float8 ORDER BY distance, id LIMIT ${limit}
    )
    SELECT n.id AS client_id, trim(n.first_name || ' ' || n.last_name) AS name, n.city AS suburb, n.lat, n.lng,
      round(n.distance)::int AS distance_metres,
      (SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', coalesce(t.color, '#64748b')) ORDER BY lower(t.name))
         FROM client_tags ct JOIN tags t ON t.id = ct.tag_id AND t.business_account_id = ${businessAccountId}
         WHERE ct.client_id = n.id) AS tags
    FROM nearest n ORDER BY n.distance, n.id`;
}

export async function nearbyClients(db: DbOrTx, businessAccountId: number, origin: Origin, radiusMetres: number, limit: number): Promise<NearbyClientRow[]> {
  const rows = await queryRows<NearbyClientRow>(db, nearbyClientsQuery(businessAccountId, origin, radiusMetres, limit));
  return rows.map((row) => ({ ...row, lat: Number(row.lat), lng: Number(row.lng), distance_metres: Number(row.distance_metres) }));
}

export interface OriginClient {
  id: number;
  name: string;
  lat: number | null;
  lng: number | null;
  time_zone: string | null;
  availability: AvailabilityEntry[];
  /** Practitioners the client asked not to be visited by (migration 0081). */
  excluded_practitioner_ids: number[];
}

export async function findClient(db: DbOrTx, businessAccountId: number, id: number): Promise<OriginClient | undefined> {
  const [row] = await queryRows<OriginClient>(db, sql`
    SELECT id, trim(first_name || ' ' || last_name) AS name, lat, lng, time_zone, availability,
      coalesce((SELECT array_agg(practitioner_id ORDER BY practitioner_id) FROM client_practitioner_preferences
        WHERE client_id = clients.id AND business_account_id = clients.business_account_id AND kind = 'excluded'), '{}') AS excluded_practitioner_ids
    FROM clients WHERE business_account_id = ${businessAccountId} AND id = ${id}`);
  if (!row) return undefined;
  return { ...row, lat: row.lat === null ? null : Number(row.lat), lng: row.lng === null ? null : Number(row.lng), availability: row.availability ?? [] };
}

/** An appointment type's length in minutes: the given one, else the business's first; undefined when there is none. */
export async function appointmentTypeMinutes(db: DbOrTx, businessAccountId: number, id: number | undefined): Promise<{ id: number; duration: number } | undefined> {
  const [row] = await queryRows<{ id: number; duration: number }>(db, sql`
    SELECT id, duration FROM appointment_types
    WHERE business_account_id = ${businessAccountId} ${id === undefined ? sql`` : sql`AND id = ${id}`}
    ORDER BY id LIMIT 1`);
  return row;
}

/**
 * Every active practitioner's start place (their home, a business location or a custom location) with its distance
 * from the origin; those without a placed start are left out. Numbers only: the practitioners module resolves the
 * few that become candidates.
 */
export async function practitionerStartDistances(db: DbOrTx, businessAccountId: number, origin: Origin): Promise<Map<number, number>> {
  const rows = await queryRows<{ id: number; metres: number }>(db, sql`
    WITH s AS (
      SELECT p.id,
        CASE p.start_place_kind WHEN 'home' THEN p.home_lat WHEN 'business_location' THEN bl.lat WHEN 'custom_location' THEN cl.lat END AS lat,
        CASE p.start_place_kind WHEN 'home' THEN p.home_lng WHEN 'business_location' THEN bl.lng WHEN 'custom_location' THEN cl.lng END AS lng
      FROM practitioners p
      LEFT JOIN business_locations bl ON bl.id = p.start_business_location_id AND bl.business_account_id = ${businessAccountId}
      LEFT JOIN custom_locations cl ON cl.id = p.start_custom_location_id AND cl.business_account_id = ${businessAccountId}
      WHERE p.business_account_id = ${businessAccountId} AND p.active
    )
    SELECT s.id, ${distanceSql(origin, sql.raw('s'))} AS metres FROM s WHERE s.lat IS NOT NULL AND s.lng IS NOT NULL`);
  return new Map(rows.map((row) => [row.id, Number(row.metres)]));
}
