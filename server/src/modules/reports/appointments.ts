// Appointments: visits in a range of days (business time zone) grouped by practitioner, type, location or day —
// visits and booked hours (not cancelled), cancelled visits, distinct clients, visits outside the client's availability
// — with the totals and the visits per day. Counts and hours in SQL (one grouping-sets query: groups, days, total);
// "outside availability" is the optimiser's rule (availabilityChecker), applied in one pass to the visits of clients
// with custom availability (the only ones it can put outside).
import { sql, type SQL } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { AvailabilityEntry } from '../../db/schema';
import { queryRows, type Db } from '../../db/client';
import type { Schemas } from '../../http/contract';
import { invalid } from '../../http/errors';
import { availabilityWindows, secondsOf, startsOutside } from '../optimizations';
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
interface GroupRow { key: string | null; day: string | null; label: string | null; by_group: boolean; by_day: boolean; visits: Count; hours: Count; cancelled: Count; clients: Count }
interface VisitRow { key: string; client_id: number; local_day: string; starts_ms: number; arrive_ms: number | null; practitioner_time_zone: string }

export async function appointmentsReport(db: Db, businessAccountId: number, filters: ReportFilters, groupBy: AppointmentsGroupBy): Promise<AppointmentsReport> {
  const { range } = filters;
  if (!range) throw invalid('start_date is required.');
  // The range's visits (the columns the report reads), each with its day in the business's time zone.
  const selected = sql`
    SELECT a.id, a.client_id, a.practitioner_id, a.appointment_type_id, a.business_location_id, a.starts_at, a.ends_at, a.arrive_at,
           a.cancelled_at, (a.starts_at AT TIME ZONE b.time_zone)::date AS day
    FROM appointments a, business_accounts b
    WHERE b.id = ${businessAccountId} AND a.business_account_id = ${businessAccountId}
      AND a.starts_at >= ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
      AND a.starts_at < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)
      ${idsIn(sql`a.practitioner_id`, filters.practitionerIds)}
      ${idsIn(sql`a.appointment_type_id`, filters.appointmentTypeIds)}
      ${idsIn(sql`a.business_location_id`, filters.businessLocationIds)}`;
  const group = grouping(groupBy, businessAccountId);
  const [grouped, available, availability] = await Promise.all([
    // The figures per group, per day (the chart) and in all, from one read of the range (hash aggregates: the distinct
    // clients are counted from the distinct (group, client) pairs).
    queryRows<GroupRow>(db, sql`
      WITH s AS MATERIALIZED (${selected}),
      g AS (
        SELECT ${group.key} AS key, s.day::text AS day, grouping(${group.key}) = 0 AS by_group, grouping(s.day) = 0 AS by_day,
               count(*) FILTER (WHERE s.cancelled_at IS NULL) AS visits,
               round(coalesce(sum(extract(epoch FROM s.ends_at - s.starts_at)) FILTER (WHERE s.cancelled_at IS NULL), 0) / 3600.0, 2) AS hours,
               count(*) FILTER (WHERE s.cancelled_at IS NOT NULL) AS cancelled
        FROM s GROUP BY GROUPING SETS ((${group.key}), (s.day), ())
      ),
      pairs AS (
        SELECT ${group.key} AS key, grouping(${group.key}) = 0 AS by_group
        FROM s WHERE s.cancelled_at IS NULL AND s.client_id IS NOT NULL
        GROUP BY GROUPING SETS ((${group.key}, s.client_id), (s.client_id))
      ),
      c AS (SELECT key, by_group, count(*) AS clients FROM pairs GROUP BY key, by_group)
      SELECT g.*, coalesce(c.clients, 0) AS clients, ${group.label} AS label
      -- A group's clients, and the total's (no key) for the total row; equalities only, so the join hashes.
      FROM g LEFT JOIN c ON NOT g.by_day AND c.by_group = g.by_group AND coalesce(c.key, '') = coalesce(g.key, '')
      ${group.join}`),
    // The visits the availability rule can put outside: those of clients with custom availability.
    queryRows<VisitRow>(db, sql`
      WITH s AS (${selected})
      SELECT ${group.key} AS key, s.client_id, (extract(epoch FROM s.starts_at) * 1000)::float8 AS starts_ms,
             (extract(epoch FROM s.arrive_at) * 1000)::float8 AS arrive_ms, p.time_zone AS practitioner_time_zone,
             -- The visit's day on the clock the rule reads availability on (the client's, else the practitioner's).
             (s.starts_at AT TIME ZONE coalesce(nullif(c.time_zone, ''), p.time_zone))::date::text AS local_day
      FROM s JOIN clients c ON c.id = s.client_id JOIN practitioners p ON p.id = s.practitioner_id
      WHERE s.cancelled_at IS NULL AND jsonb_array_length(c.availability) > 0`),
    queryRows<{ id: number; availability: AvailabilityEntry[]; time_zone: string | null }>(db, sql`
      SELECT id, availability, time_zone FROM clients WHERE business_account_id = ${businessAccountId} AND jsonb_array_length(availability) > 0`),
  ]);

  const clientOf = new Map(availability.map((client) => [client.id, client]));
  const outside = new Map<string, number>();
  // The optimiser's rule (availabilityChecker's): a client's windows on a local day, read once per client and day
  // (keyed by the client, not by their availability written out: ~100,000 visits a month).
  const windowsOf = new Map<string, ReturnType<typeof availabilityWindows>>();
  for (const visit of available) {
    const client = clientOf.get(visit.client_id);
    if (!client) continue;
    const startsAt = new Date(visit.starts_ms);
    const key = `${visit.client_id} ${visit.local_day} ${visit.practitioner_time_zone}`;
    let windows = windowsOf.get(key);
    if (windows === undefined) {
      windows = availabilityWindows({ availability: client.availability, clientTimeZone: client.time_zone, startsAt }, visit.practitioner_time_zone, 0);
      windowsOf.set(key, windows);
    }
    const arrival = visit.arrive_ms === null ? startsAt : new Date(visit.arrive_ms);
    if (startsOutside(windows, secondsOf(arrival, 0))) outside.set(visit.key, (outside.get(visit.key) ?? 0) + 1);
  }
  const figures = (row: GroupRow | undefined, outsideCount: number): Figures => ({
    visits: Number(row?.visits ?? 0), hours: Number(row?.hours ?? 0), cancelled: Number(row?.cancelled ?? 0),
    outside_availability: outsideCount, clients: Number(row?.clients ?? 0),
  });
  const rows = grouped.filter((row) => row.by_group).map((row) => ({
    key: row.key!, label: row.label ?? 'A removed record', ...figures(row, outside.get(row.key!) ?? 0),
  }));
  rows.sort(groupBy === 'day' ? (a, b) => a.key.localeCompare(b.key) : (a, b) => a.label.localeCompare(b.label, 'en', { sensitivity: 'base' }) || a.key.localeCompare(b.key));
  const perDay = new Map(grouped.filter((row) => row.by_day).map((row) => [row.day!, row]));
  const days: AppointmentsReport['days'] = [];
  const last = Temporal.PlainDate.from(range.endDate);
  for (let day = Temporal.PlainDate.from(range.startDate); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    const row = perDay.get(day.toString());
    days.push({ day: day.toString(), visits: Number(row?.visits ?? 0), cancelled: Number(row?.cancelled ?? 0) });
  }
  return {
    rows,
    summary: figures(grouped.find((row) => !row.by_group && !row.by_day), [...outside.values()].reduce((sum, count) => sum + count, 0)),
    days,
  };
}
