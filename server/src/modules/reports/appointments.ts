// Appointments: visits in a range of days (business time zone) grouped by practitioner, type, location or day —
// visits and booked hours (not cancelled), cancelled visits, distinct clients, visits outside the client's availability
// — with the totals and the visits per day. The visits that are not cancelled are read from the travel summary
// (ADR 0017; fresh first): each has its day, practitioner, type, location, client, length and whether its arrival is
// within the client's availability (`punctual`: the optimiser's availabilityWindows/startsOutside, computed when the
// day is summarised, kept right by the summary's change tracking). Cancelled visits are not in the summary: they are
// counted from the appointments (a partial index holds only them).
//
// The figures are kept in a list cache (db/list-cache.ts) keyed by the business's lists_version: every table they read
// (appointments, clients, practitioners, appointment types) moves it, so an answer is reused only while that data is
// the same; the groups' labels (a location's name is not tracked by it) are read on every request.
import { sql, type SQL } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { queryRows } from '../../db/client';
import type { ListCache } from '../../db/list-cache';
import type { AppContext } from '../../http/context';
import type { Schemas } from '../../http/contract';
import { invalid } from '../../http/errors';
import { freshTravelSummary } from '../travel';
import type { ReportFilters } from './filters';

export type AppointmentsGroupBy = 'practitioner' | 'type' | 'location' | 'day';
type Row = Schemas['AppointmentsReportRow'];
type Figures = Schemas['AppointmentsReportFigures'];
export type AppointmentsReport = { rows: Row[]; summary: Figures; days: { day: string; visits: number; cancelled: number }[] };

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

/** Each grouping's column over a row of the summary or of the appointments (`t`): grouped as is (NULL: none). */
function keyOf(groupBy: AppointmentsGroupBy, day: SQL): SQL {
  switch (groupBy) {
    case 'practitioner': return sql`t.practitioner_id`;
    case 'type': return sql`t.appointment_type_id`;
    case 'location': return sql`t.business_location_id`;
    case 'day': return day;
  }
}

/** The key as the API says it: an id ('none' without one) or the day. */
const keyText = (groupBy: AppointmentsGroupBy, key: SQL) => (groupBy === 'day' ? sql`to_char(${key}, 'YYYY-MM-DD')` : sql`coalesce(${key}::text, 'none')`);

/** The groups' labels (a day is its own), for the keys found. */
async function labelsOf(db: AppContext['db'], businessAccountId: number, groupBy: AppointmentsGroupBy, keys: string[]): Promise<Map<string, string>> {
  const ids = keys.filter((key) => key !== 'none').map(Number);
  const labels = new Map<string, string>();
  if (groupBy === 'type') labels.set('none', 'No appointment type');
  if (groupBy === 'location') labels.set('none', 'No business location');
  if (groupBy === 'day' || ids.length === 0) return labels;
  const table = { practitioner: sql`practitioners`, type: sql`appointment_types`, location: sql`business_locations` }[groupBy];
  const name = groupBy === 'practitioner' ? sql`btrim(x.first_name || ' ' || x.last_name)` : sql`x.name`;
  const rows = await queryRows<{ id: number; label: string }>(db, sql`
    SELECT x.id, ${name} AS label FROM ${table} x
    WHERE x.business_account_id = ${businessAccountId} AND x.id = ANY(${`{${ids.join(',')}}`}::int[])`);
  for (const row of rows) labels.set(String(row.id), row.label);
  return labels;
}

/** Labels in the order localeCompare(b, 'en', { sensitivity: 'base' }) gives, with one collator (not one per comparison). */
const byLabel = new Intl.Collator('en', { sensitivity: 'base' });

type Count = string | number;
interface KeptRow { key: string | null; day: string | null; by_group: boolean; by_day: boolean; visits: Count; hours: Count; outside: Count; clients: Count }
interface CancelledRow { key: string | null; day: string | null; by_group: boolean; by_day: boolean; cancelled: Count }

export async function appointmentsReport(
  ctx: AppContext, cache: ListCache, businessAccountId: number, filters: ReportFilters, groupBy: AppointmentsGroupBy,
): Promise<AppointmentsReport> {
  const { range } = filters;
  if (!range) throw invalid('start_date is required.');
  const { kept, cancelled } = JSON.parse(await cache.through(businessAccountId, ['appointments report', filters, groupBy], async () =>
    JSON.stringify(await figuresOf(ctx, businessAccountId, { ...filters, range }, groupBy)))) as Awaited<ReturnType<typeof figuresOf>>;

  const keptOf = new Map(kept.filter((row) => row.by_group).map((row) => [row.key!, row]));
  const cancelledOf = new Map(cancelled.filter((row) => row.by_group).map((row) => [row.key!, row]));
  const figures = (row: KeptRow | undefined, cancelledRow: CancelledRow | undefined): Figures => ({
    visits: Number(row?.visits ?? 0), hours: Number(row?.hours ?? 0), cancelled: Number(cancelledRow?.cancelled ?? 0),
    outside_availability: Number(row?.outside ?? 0), clients: Number(row?.clients ?? 0),
  });
  const keys = [...new Set([...keptOf.keys(), ...cancelledOf.keys()])];
  const labels = await labelsOf(ctx.db, businessAccountId, groupBy, keys);
  const rows = keys.map((key) => ({
    key, label: groupBy === 'day' ? key : labels.get(key) ?? 'A removed record', ...figures(keptOf.get(key), cancelledOf.get(key)),
  }));
  rows.sort(groupBy === 'day' ? (a, b) => a.key.localeCompare(b.key) : (a, b) => byLabel.compare(a.label, b.label) || a.key.localeCompare(b.key));
  const keptPerDay = new Map(kept.filter((row) => row.by_day).map((row) => [row.day!, row]));
  const cancelledPerDay = new Map(cancelled.filter((row) => row.by_day).map((row) => [row.day!, row]));
  const days: AppointmentsReport['days'] = [];
  const last = Temporal.PlainDate.from(range.endDate);
  for (let day = Temporal.PlainDate.from(range.startDate); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    days.push({ day: day.toString(), visits: Number(keptPerDay.get(day.toString())?.visits ?? 0), cancelled: Number(cancelledPerDay.get(day.toString())?.cancelled ?? 0) });
  }
  return {
    rows,
    summary: figures(kept.find((row) => !row.by_group && !row.by_day), cancelled.find((row) => !row.by_group && !row.by_day)),
    days,
  };
}

/** The figures per group, per day and in all, before labels: the visits not cancelled (summary), the cancelled ones. */
async function figuresOf(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters & { range: { startDate: string; endDate: string } }, groupBy: AppointmentsGroupBy,
): Promise<{ kept: KeptRow[]; cancelled: CancelledRow[] }> {
  const { db } = ctx;
  const { range } = filters;
  await freshTravelSummary(db, ctx.config, businessAccountId, range, filters.practitionerIds);
  const chosen = sql`${idsIn(sql`t.practitioner_id`, filters.practitionerIds)}
      ${idsIn(sql`t.appointment_type_id`, filters.appointmentTypeIds)}
      ${idsIn(sql`t.business_location_id`, filters.businessLocationIds)}`;
  const keptKey = keyOf(groupBy, sql`t.day`);
  const cancelledDay = sql`(t.starts_at AT TIME ZONE b.time_zone)::date`;
  const cancelledKey = keyOf(groupBy, cancelledDay);
  const inRange = sql`t.business_account_id = ${businessAccountId} AND t.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date ${chosen}`;
  const [groups, daysAndTotal, cancelled] = await Promise.all([
    // Visits that are not cancelled, per group: a group's distinct clients counted within the group (sorted by group,
    // each group's clients a small sort) — not by hashing every (group, client) cell, which spills on a busy month.
    queryRows<KeptRow>(db, sql`
      SELECT ${keyText(groupBy, keptKey)} AS key, NULL AS day, true AS by_group, false AS by_day,
             count(*) AS visits, round(coalesce(sum(t.visit_ms), 0) / 3600000.0, 2) AS hours,
             count(*) FILTER (WHERE NOT t.punctual) AS outside, count(DISTINCT t.client_id) AS clients
      FROM travel_summary_visits t WHERE ${inRange}
      GROUP BY ${keptKey}`),
    // Per day and in all, in one pass: per day and per client (small hashes: a month's days, the clients), then
    // those cells added up — the distinct clients in all are the client cells with a client.
    queryRows<KeptRow>(db, sql`
      WITH cells AS (
        SELECT t.day, t.client_id, grouping(t.day) = 0 AS by_day,
               count(*) AS visits, sum(t.visit_ms) AS visit_ms, count(*) FILTER (WHERE NOT t.punctual) AS outside
        FROM travel_summary_visits t WHERE ${inRange}
        GROUP BY GROUPING SETS ((t.day), (t.client_id))
      )
      SELECT NULL AS key, CASE WHEN by_day THEN to_char(day, 'YYYY-MM-DD') END AS day, false AS by_group, by_day,
             sum(visits) AS visits, round(coalesce(sum(visit_ms), 0) / 3600000.0, 2) AS hours,
             sum(outside) AS outside, count(client_id) FILTER (WHERE NOT by_day) AS clients
      FROM cells GROUP BY by_day, cells.day`),
    queryRows<CancelledRow>(db, sql`
      SELECT ${keyText(groupBy, cancelledKey)} AS key, to_char(${cancelledDay}, 'YYYY-MM-DD') AS day,
             grouping(${cancelledKey}) = 0 AS by_group, grouping(${cancelledDay}) = 0 AS by_day, count(*) AS cancelled
      FROM appointments t, business_accounts b
      WHERE b.id = ${businessAccountId} AND t.business_account_id = ${businessAccountId} AND t.cancelled_at IS NOT NULL
        AND t.starts_at >= ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
        AND t.starts_at < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)
        ${chosen}
      GROUP BY GROUPING SETS ((${cancelledKey}), (${cancelledDay}), ())`),
  ]);
  return { kept: [...groups, ...daysAndTotal], cancelled };
}
