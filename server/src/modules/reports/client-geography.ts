// Client geography: where clients live — each client's point, suburb and postcode, the great-circle distance to the
// nearest start place of an active practitioner (the optimiser's haversine), whether it is beyond the service radius,
// and counts by suburb or postcode. Every client of the business; with a range or a visit filter, only the clients
// with such a visit that is not cancelled (as Clients missing address reads them). One query for the clients, the
// practitioners module's resolution of start places.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { ListCache } from '../../db/list-cache';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { greatCircleMetres } from '../../optimizer/travel/haversine';
import { loadStartPlaces } from '../practitioners';
import { pageMeta, pageSlice, type ReportFilters, type ReportPage } from './filters';

type Row = Schemas['ClientGeographyRow'];
type Group = Schemas['ClientGeographyGroup'];
type Point = Schemas['ClientGeographyPoint'];
export type ClientGeographyReport = { rows: Row[]; meta: Schemas['PageMeta']; groups: Group[]; points: Point[]; summary: Schemas['ClientGeographySummary'] };
export type GroupBy = 'suburb' | 'postcode';

export const DEFAULT_RADIUS_KM = 25;
/** The most clients on the map (beyond the radius first): a street map's pins are elements, more make it slow. */
export const MAP_POINTS = 5000;

/**
 * The table's columns the server sorts by (the page's column ids): what each sorts by, empty (null) last. The distance
 * is measured here, not in SQL, so every client's row is built and sorted here; the page is then a slice.
 */
export const CLIENT_GEOGRAPHY_SORTS = {
  client: (row: Row) => row.client_name, suburb: (row: Row) => row.suburb, postcode: (row: Row) => row.postcode,
  point: (row: Row) => (row.lat === null ? 0 : 1), start: (row: Row) => row.nearest_start_place,
  practitioner: (row: Row) => row.nearest_practitioner_name, distance: (row: Row) => row.distance_km, outside: (row: Row) => (row.outside_radius ? 1 : 0),
} satisfies Record<string, (row: Row) => string | number | null>;
export type ClientGeographySort = keyof typeof CLIENT_GEOGRAPHY_SORTS;
const byText = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

interface DbRow {
  id: number; first_name: string; last_name: string; city: string | null; post_code: string | null;
  lat: string | number | null; lng: string | number | null; geo_precision: string | null;
}

type GeographyOptions = { radiusKm?: number; groupBy?: GroupBy; sort?: ClientGeographySort; page?: ReportPage };

/**
 * The report, kept in the reports' list cache: everything it reads (clients, their visits, practitioners, business
 * and custom locations as start places) moves the business's lists_version (migrations 0030 and 0068), and the
 * business's time zone (the range's days) is part of the key.
 */
export async function clientGeography(
  ctx: AppContext, cache: ListCache, businessAccountId: number, filters: ReportFilters, options: GeographyOptions,
): Promise<ClientGeographyReport> {
  return JSON.parse(await cache.through(businessAccountId, ['client geography', filters, options], async () =>
    JSON.stringify(await geographyOf(ctx, businessAccountId, filters, options)))) as ClientGeographyReport;
}

async function geographyOf(ctx: AppContext, businessAccountId: number, filters: ReportFilters, options: GeographyOptions): Promise<ClientGeographyReport> {
  const { db } = ctx;
  const radiusKm = options.radiusKm ?? DEFAULT_RADIUS_KM;
  const groupBy = options.groupBy ?? 'suburb';
  const { range } = filters;
  const visitRequired = range !== null || filters.practitionerIds.length + filters.appointmentTypeIds.length + filters.businessLocationIds.length > 0;
  const visit = visitRequired ? sql`AND EXISTS (
      SELECT 1 FROM appointments a
      WHERE a.business_account_id = ${businessAccountId} AND a.client_id = c.id AND a.cancelled_at IS NULL
        ${range ? sql`AND a.starts_at >= ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
        AND a.starts_at < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)` : sql``}
        ${idsIn(sql`a.practitioner_id`, filters.practitionerIds)}
        ${idsIn(sql`a.appointment_type_id`, filters.appointmentTypeIds)}
        ${idsIn(sql`a.business_location_id`, filters.businessLocationIds)})` : sql``;
  const [clients, practitioners] = await Promise.all([
    queryRows<DbRow>(db, sql`
      SELECT c.id, c.first_name, c.last_name, c.city, c.post_code, c.lat, c.lng, c.geo_precision
      FROM clients c
      JOIN business_accounts b ON b.id = c.business_account_id
      WHERE c.business_account_id = ${businessAccountId} ${visit}
      ORDER BY lower(c.last_name), lower(c.first_name), c.id`),
    loadStartPlaces(db, businessAccountId),
  ]);

  // The start places measured from: each active practitioner's (one place may be several practitioners').
  const places = new Map<string, { name: string; lat: number; lng: number; practitioners: string[] }>();
  for (const practitioner of practitioners) {
    const { startPlace } = practitioner;
    if (!practitioner.active || !startPlace) continue;
    const key = `${startPlace.lat},${startPlace.lng},${startPlace.name}`;
    const place = places.get(key) ?? { name: startPlace.name, lat: startPlace.lat, lng: startPlace.lng, practitioners: [] };
    place.practitioners.push(practitioner.name);
    places.set(key, place);
  }
  // By latitude: the search for a client's nearest walks out from their latitude and stops once the latitude alone
  // is farther than the best found (a great circle is never shorter than its north–south part).
  const starts = [...places.values()].sort((a, b) => a.lat - b.lat);
  const METRES_PER_DEGREE = greatCircleMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 });
  const nearestTo = (point: { lat: number; lng: number }) => {
    let best: { place: (typeof starts)[number]; metres: number } | null = null;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle].lat < point.lat) low = middle + 1;
      else high = middle;
    }
    for (let down = low - 1, up = low; down >= 0 || up < starts.length;) {
      const below = down >= 0 ? (point.lat - starts[down].lat) * METRES_PER_DEGREE : Infinity;
      const above = up < starts.length ? (starts[up].lat - point.lat) * METRES_PER_DEGREE : Infinity;
      if (best && Math.min(below, above) > best.metres) break;
      const place = below <= above ? starts[down--] : starts[up++];
      const metres = greatCircleMetres(point, place);
      if (!best || metres < best.metres) best = { place, metres };
    }
    return best;
  };

  const rows: Row[] = clients.map((client) => {
    const placed = client.lat !== null && client.lng !== null && client.geo_precision !== 'none';
    const point = placed ? { lat: Number(client.lat), lng: Number(client.lng) } : null;
    const nearest = point ? nearestTo(point) : null;
    const distanceKm = nearest ? Math.round(nearest.metres / 100) / 10 : null;
    return {
      client_id: client.id, client_name: `${client.first_name} ${client.last_name}`.trim(),
      suburb: client.city?.trim() || null, postcode: client.post_code?.trim() || null,
      lat: point?.lat ?? null, lng: point?.lng ?? null, geo_precision: client.geo_precision,
      nearest_start_place: nearest?.place.name ?? null, nearest_practitioner_name: nearest ? nearest.place.practitioners.join(', ') : null,
      distance_km: distanceKm, outside_radius: nearest !== null && nearest.metres > radiusKm * 1000,
    };
  });

  const groups = new Map<string, Group>();
  for (const row of rows) {
    const key = (groupBy === 'suburb' ? row.suburb : row.postcode) ?? '';
    const group = groups.get(key) ?? { key, clients: 0, placed: 0, outside_radius: 0 };
    group.clients += 1;
    if (row.lat !== null) group.placed += 1;
    if (row.outside_radius) group.outside_radius += 1;
    groups.set(key, group);
  }
  const distances = rows.flatMap((row) => (row.distance_km === null ? [] : [row.distance_km])).sort((a, b) => a - b);
  const middle = Math.floor(distances.length / 2);
  const median = distances.length === 0 ? null
    : distances.length % 2 === 1 ? distances[middle] : Math.round(((distances[middle - 1] + distances[middle]) / 2) * 10) / 10;
  // The page: in the chosen order, empty last, ties in the name order the query gave (then by id).
  const page = options.page ?? { page: 1, perPage: null, descending: false };
  const valueOf = CLIENT_GEOGRAPHY_SORTS[options.sort ?? 'client'];
  const sign = page.descending ? -1 : 1;
  const position = new Map(rows.map((row, index) => [row.client_id, index]));
  const sorted = options.sort === undefined || options.sort === 'client' ? (page.descending ? [...rows].reverse() : rows) : [...rows].sort((a, b) => {
    const [x, y] = [valueOf(a), valueOf(b)];
    if (x === null || y === null) return x === y ? position.get(a.client_id)! - position.get(b.client_id)! : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : byText(String(x), String(y));
    return sign * order || position.get(a.client_id)! - position.get(b.client_id)!;
  });
  const points = rows.filter((row) => row.lat !== null && row.lng !== null)
    .sort((a, b) => Number(b.outside_radius) - Number(a.outside_radius) || position.get(a.client_id)! - position.get(b.client_id)!)
    .slice(0, MAP_POINTS)
    .map((row) => ({ client_id: row.client_id, client_name: row.client_name, lat: row.lat!, lng: row.lng!, outside_radius: row.outside_radius }));
  return {
    rows: pageSlice(sorted, page),
    meta: pageMeta(page, rows.length),
    points,
    groups: [...groups.values()].sort((a, b) => b.clients - a.clients || a.key.localeCompare(b.key)),
    summary: {
      clients: rows.length, placed: rows.filter((row) => row.lat !== null).length,
      outside_radius: rows.filter((row) => row.outside_radius).length, median_distance_km: median, radius_km: radiusKm, start_places: starts.length,
    },
  };
}
