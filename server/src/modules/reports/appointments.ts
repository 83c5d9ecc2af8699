// Appointments: visits in a range of days (business time zone) grouped by practitioner, type, location or day —
// visits and booked hours (not cancelled), cancelled visits, distinct clients, visits outside the client's availability
// — with the totals and the visits per day. Counts and hours in SQL (one grouping-sets query, and one per-day series);
// "outside availability" is the optimiser's rule (arrivesOutsideAvailability), applied in one pass to the visits of
// clients with custom availability (the only ones it can put outside).
import { sql, type SQL } from 'drizzle-orm';
import type { AvailabilityEntry } from '../../db/schema';
import { queryRows, type Db } from '../../db/client';
import type { Schemas } from '../../http/contract';
import { invalid } from '../../http/errors';
import { arrivesOutsideAvailability } from '../optimizations';
import type { ReportFilters } from './filters';

export type AppointmentsGroupBy = 'practitioner' | 'type' | 'location' | 'day';
type Row = Schemas['AppointmentsReportRow'];
type Figures = Schemas['AppointmentsReportFigures'];
export type AppointmentsReport = { rows: Row[]; summary: Figures; days: { day: string; visits: number; cancelled: number }[] };

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

/** Each grouping's key (text; 'none' without one) and how its label is found. */
function grouping(groupBy: AppointmentsGroupBy, businessAccountId: number): { key: SQL; label: SQL; join: SQL } {
  switch (groupBy) {
    case 'practitioner':
      return {
        key: sql`s.practitioner_id::text`,
        label: sql`btrim(p.first_name || ' ' || p.last_name)`,
        join: sql`LEFT JOIN practitioners p ON p.id::text = g.key AND p.business_account_id = ${businessAccountId}`,
      };
    case 'type':
      return {
        key: sql`coalesce(s.appointment_type_id::text, 'none')`,
        label: sql`coalesce(t.name, 'No appointment type')`,
        join: sql`LEFT JOIN appointment_types t ON t.id::text = g.key AND t.business_account_id = ${businessAccountId}`,
      };
    case 'location':
      return {
        key: sql`coalesce(s.business_location_id::text, 'none')`,
        label: sql`coalesce(l.name, 'No business location')`,
        join: sql`LEFT JOIN business_locations l ON l.id::text = g.key AND l.business_account_id = ${businessAccountId}`,
      };
    case 'day':
      return { key: sql`s.day::text`, label: sql`g.key`, join: sql`` };
  }
}

type Count = string | number;
interface GroupRow { key: string | null; label: string | null; total: boolean; visits: Count; hours: Count; cancelled: Count; clients: Count }
interface VisitRow { key: string; starts_at: Date | string; arrive_at: Date | string | null; availability: AvailabilityEntry[]; client_time_zone: string | null; practitioner_time_zone: string }

export async function appointmentsReport(db: Db, businessAccountId: number, filters: ReportFilters, groupBy: AppointmentsGroupBy): Promise<AppointmentsReport> {
  const { range } = filters;
  if (!range) throw invalid('start_date is required.');
  // The range's visits, each with its day in the business's time zone.
  const selected = sql`
    SELECT a.*, (a.starts_at AT TIME ZONE b.time_zone)::date AS day
    FROM appointments a, business_accounts b
    WHERE b.id = ${businessAccountId} AND a.business_account_id = ${businessAccountId}
      AND a.starts_at >= ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
      AND a.starts_at < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)
      ${idsIn(sql`a.practitioner_id`, filters.practitionerIds)}
      ${idsIn(sql`a.appointment_type_id`, filters.appointmentTypeIds)}
      ${idsIn(sql`a.business_location_id`, filters.businessLocationIds)}`;
  const group = grouping(groupBy, businessAccountId);
  const [grouped, days, available] = await Promise.all([
    queryRows<GroupRow>(db, sql`
      WITH s AS (${selected}),
      g AS (
        SELECT ${group.key} AS key, grouping(${group.key}) = 1 AS total,
               count(*) FILTER (WHERE s.cancelled_at IS NULL) AS visits,
               round(coalesce(sum(extract(epoch FROM s.ends_at - s.starts_at)) FILTER (WHERE s.cancelled_at IS NULL), 0) / 3600.0, 2) AS hours,
               count(*) FILTER (WHERE s.cancelled_at IS NOT NULL) AS cancelled,
               count(DISTINCT s.client_id) FILTER (WHERE s.cancelled_at IS NULL) AS clients
        FROM s GROUP BY GROUPING SETS ((${group.key}), ())
      )
      SELECT g.*, ${group.label} AS label FROM g ${group.join}`),
    queryRows<{ day: string; visits: Count; cancelled: Count }>(db, sql`
      WITH s AS (${selected})
      SELECT d.day::date::text AS day,
             count(s.id) FILTER (WHERE s.cancelled_at IS NULL) AS visits,
             count(s.id) FILTER (WHERE s.cancelled_at IS NOT NULL) AS cancelled
      FROM generate_series(${range.startDate}::timestamp, ${range.endDate}::timestamp, interval '1 day') AS d(day)
      LEFT JOIN s ON s.day = d.day::date
      GROUP BY d.day ORDER BY d.day`),
    queryRows<VisitRow>(db, sql`
      WITH s AS (${selected})
      SELECT ${group.key} AS key, s.starts_at, s.arrive_at, c.availability, c.time_zone AS client_time_zone, p.time_zone AS practitioner_time_zone
      FROM s JOIN clients c ON c.id = s.client_id JOIN practitioners p ON p.id = s.practitioner_id
      WHERE s.cancelled_at IS NULL AND jsonb_array_length(c.availability) > 0`),
  ]);

  const outside = new Map<string, number>();
  for (const visit of available) {
    const isOutside = arrivesOutsideAvailability({
      availability: visit.availability, clientTimeZone: visit.client_time_zone,
      startsAt: new Date(visit.starts_at), arriveAt: visit.arrive_at === null ? null : new Date(visit.arrive_at),
    }, visit.practitioner_time_zone);
    if (isOutside) outside.set(visit.key, (outside.get(visit.key) ?? 0) + 1);
  }
  const figures = (row: GroupRow | undefined, outsideCount: number): Figures => ({
    visits: Number(row?.visits ?? 0), hours: Number(row?.hours ?? 0), cancelled: Number(row?.cancelled ?? 0),
    outside_availability: outsideCount, clients: Number(row?.clients ?? 0),
  });
  const rows = grouped.filter((row) => !row.total).map((row) => ({
    key: row.key!, label: row.label ?? 'A removed record', ...figures(row, outside.get(row.key!) ?? 0),
  }));
  rows.sort(groupBy === 'day' ? (a, b) => a.key.localeCompare(b.key) : (a, b) => a.label.localeCompare(b.label, 'en', { sensitivity: 'base' }) || a.key.localeCompare(b.key));
  return {
    rows,
    summary: figures(grouped.find((row) => row.total), [...outside.values()].reduce((sum, count) => sum + count, 0)),
    days: days.map((row) => ({ day: row.day, visits: Number(row.visits), cancelled: Number(row.cancelled) })),
  };
}
