// Practitioner performance: per practitioner over the days, their visits and cancellations, utilisation (the one
// rule the dashboard uses: booked visit time ÷ the working hours of their settings), idle time (between two visits
// in a row of a day, the time beyond the travel between them — the travel module's leg), punctuality (arrival
// within the client's availability, by the optimiser's rule, as the dashboard marks visits outside it — or, for a
// visit checked in, its actual arrival within its tolerance of the plan: actual-vs-planned.ts), distinct
// clients and continuity (visits to a client the practitioner had visited before: every visit but the pair's first,
// which practitioner_first_visits keeps, ADR 0018). Counts are SQL; idle time and punctuality, the rules the optimiser
// and the travel module own, are applied per visit by the travel summary (ADR 0017) and added up here. The
// answer is per practitioner.
import { sql, type SQL } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { queryRows } from '../../db/client';
import type { ListCache } from '../../db/list-cache';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { loadWorkingTime, utilisationOf } from '../practitioners';
import { LEGS_COUNTED } from '../travel';
import { checkInPunctuality } from './actual-vs-planned';
import type { ReportFilters } from './filters';
import { travelRangeOf, travelTotals } from './practitioner-travel';

type Row = Schemas['PractitionerPerformanceRow'];
type Summary = Schemas['PractitionerPerformanceSummary'];
export type PractitionerPerformanceReport = { rows: Row[]; summary: Summary };

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);
const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : null);

interface CountRow {
  practitioner_id: number | null;
  visits: string | number; cancellations: string | number; visit_seconds: string | number;
  clients: string | number; with_client: string | number; repeat_visits: string | number;
}

export async function practitionerPerformance(
  ctx: AppContext, cache: ListCache, businessAccountId: number, filters: ReportFilters,
): Promise<PractitionerPerformanceReport> {
  const { db } = ctx;
  const range = travelRangeOf(filters);
  const dates: string[] = [];
  for (let day = Temporal.PlainDate.from(range.startDate); Temporal.PlainDate.compare(day, Temporal.PlainDate.from(range.endDate)) <= 0; day = day.add({ days: 1 })) {
    dates.push(day.toString());
  }
  const practitionerIds = filters.practitionerIds.length ? filters.practitionerIds : null;
  const [counts, practitioners, summarised, checkedIn] = await Promise.all([
    // The appointments' counts read only appointments (and practitioner_first_visits, which their trigger keeps):
    // kept in the reports' list cache while the business's lists_version (which every appointments writer moves)
    // stays the same.
    cache.through(businessAccountId, ['practitioner performance counts', filters], async () => JSON.stringify(await countsOf(ctx, businessAccountId, filters)))
      .then((text) => JSON.parse(text) as CountRow[]),
    loadWorkingTime(db, businessAccountId, practitionerIds, dates),
    travelTotals(ctx, businessAccountId, filters, filters.practitionerIds, 'practitioner'),
    // The visits with steps: those checked in are judged by their arrival, those not attended not at all.
    checkInPunctuality(ctx, businessAccountId, filters, range),
  ]);

  const practitionerOf = new Map(practitioners.map((practitioner) => [practitioner.practitionerId, practitioner]));
  const perPractitioner = new Map(summarised.map((row) => [row.practitioner_id, { idle: row.idle_seconds, punctual: row.punctual_visits }]));

  const total = counts.find((row) => row.practitioner_id === null);
  const byPractitioner = new Map(counts.filter((row) => row.practitioner_id !== null).map((row) => [row.practitioner_id!, row]));
  const ids = new Set(byPractitioner.keys());
  for (const [id, own] of practitionerOf) if (own.active && own.workingSeconds > 0) ids.add(id);
  const rows: Row[] = [...ids].map((id) => {
    const count = byPractitioner.get(id);
    const own = practitionerOf.get(id);
    const visits = Number(count?.visits ?? 0);
    const visitSeconds = Math.round(Number(count?.visit_seconds ?? 0));
    const working = own?.workingSeconds ?? 0;
    const extra = perPractitioner.get(id) ?? { idle: 0, punctual: 0 };
    const repeats = Number(count?.repeat_visits ?? 0);
    const actual = checkedIn.get(id) ?? { checkedIn: 0, onTime: 0, missed: 0, plannedPunctual: 0 };
    const punctual = extra.punctual - actual.plannedPunctual + actual.onTime;
    const fromPlanned = Math.max(0, visits - actual.checkedIn - actual.missed);
    return {
      practitioner_id: id, practitioner_name: own?.name ?? `Practitioner ${id}`,
      visits, cancellations: Number(count?.cancellations ?? 0), visit_seconds: visitSeconds, working_seconds: working,
      utilisation: utilisationOf(visitSeconds, working), idle_seconds: extra.idle,
      punctual_visits: punctual, punctuality: ratio(punctual, actual.checkedIn + fromPlanned),
      from_check_ins: actual.checkedIn, from_planned_times: fromPlanned,
      clients: Number(count?.clients ?? 0), repeat_visits: repeats, continuity: ratio(repeats, Number(count?.with_client ?? 0)),
    };
  }).sort((a, b) => a.practitioner_name.localeCompare(b.practitioner_name) || a.practitioner_id - b.practitioner_id);

  const sum = (key: 'visits' | 'cancellations' | 'visit_seconds' | 'working_seconds' | 'idle_seconds' | 'punctual_visits' | 'repeat_visits' | 'from_check_ins' | 'from_planned_times') =>
    rows.reduce((acc, row) => acc + row[key], 0);
  const withWorking = rows.filter((row) => row.working_seconds > 0);
  const summary: Summary = {
    practitioners: rows.length, visits: sum('visits'), cancellations: sum('cancellations'), visit_seconds: sum('visit_seconds'),
    working_seconds: sum('working_seconds'),
    // Utilisation in all counts the practitioners with working hours, as the dashboard's does.
    utilisation: utilisationOf(withWorking.reduce((acc, row) => acc + row.visit_seconds, 0), sum('working_seconds')),
    idle_seconds: sum('idle_seconds'), punctual_visits: sum('punctual_visits'),
    punctuality: ratio(sum('punctual_visits'), sum('from_check_ins') + sum('from_planned_times')),
    from_check_ins: sum('from_check_ins'), from_planned_times: sum('from_planned_times'),
    clients: Number(total?.clients ?? 0), repeat_visits: sum('repeat_visits'), continuity: ratio(sum('repeat_visits'), Number(total?.with_client ?? 0)),
    legs_counted: `Idle time counts the time between two visits in a row beyond the leg between them (${LEGS_COUNTED})`,
  };
  return { rows, summary };
}

/**
 * Per practitioner (and, with practitioner_id null, in all: distinct clients and visits with a client) the range's
 * counts. Two statements (run side by side): per practitioner, one pass over the range's appointments sorted by
 * practitioner (each one's distinct clients a small sort), joined to their first visits in the range (one index-only
 * scan, hashed); in all, the range's clients hashed (one entry per client). ADR 0018's addendum has the plans.
 */
async function countsOf(ctx: AppContext, businessAccountId: number, filters: ReportFilters): Promise<CountRow[]> {
  const range = travelRangeOf(filters);
  const bounds = sql`bounds AS (
    SELECT ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone) AS from_at,
           ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone) AS to_at
    FROM business_accounts b WHERE b.id = ${businessAccountId}
  )`;
  const chosen = (t: string) => sql`${idsIn(sql.raw(`${t}.practitioner_id`), filters.practitionerIds)}
    ${idsIn(sql.raw(`${t}.appointment_type_id`), filters.appointmentTypeIds)}
    ${idsIn(sql.raw(`${t}.business_location_id`), filters.businessLocationIds)}`;
  const inRange = (t: string) => sql`${sql.raw(t)}.business_account_id = ${businessAccountId}
    AND ${sql.raw(t)}.starts_at >= bounds.from_at AND ${sql.raw(t)}.starts_at < bounds.to_at ${chosen(t)}`;
  const [perPractitioner, [total]] = await Promise.all([
    // The first visits (practitioner and client) in the range that count: every other counted visit with a client
    // is a repeat, the pair's first visit being earlier.
    queryRows<CountRow>(ctx.db, sql`
      WITH ${bounds}, firsts AS (
        SELECT f.practitioner_id, count(*) AS first_visits
        FROM practitioner_first_visits f, bounds WHERE ${inRange('f')}
        GROUP BY f.practitioner_id
      ), counts AS (
        SELECT a.practitioner_id,
               count(*) FILTER (WHERE a.cancelled_at IS NULL) AS visits,
               count(*) FILTER (WHERE a.cancelled_at IS NOT NULL) AS cancellations,
               coalesce(sum(extract(epoch FROM a.ends_at - a.starts_at)) FILTER (WHERE a.cancelled_at IS NULL), 0) AS visit_seconds,
               count(DISTINCT a.client_id) FILTER (WHERE a.cancelled_at IS NULL) AS clients,
               count(*) FILTER (WHERE a.cancelled_at IS NULL AND a.client_id IS NOT NULL) AS with_client
        FROM appointments a, bounds WHERE ${inRange('a')}
        GROUP BY a.practitioner_id
      )
      SELECT c.practitioner_id, c.visits, c.cancellations, c.visit_seconds, c.clients, c.with_client,
             c.with_client - coalesce(f.first_visits, 0) AS repeat_visits
      FROM counts c LEFT JOIN firsts f ON f.practitioner_id = c.practitioner_id`),
    queryRows<Pick<CountRow, 'clients' | 'with_client'>>(ctx.db, sql`
      WITH ${bounds}
      SELECT count(*) AS clients, coalesce(sum(x.visits), 0) AS with_client
      FROM (
        SELECT a.client_id, count(*) AS visits FROM appointments a, bounds
        WHERE ${inRange('a')} AND a.cancelled_at IS NULL AND a.client_id IS NOT NULL
        GROUP BY a.client_id
      ) x`),
  ]);
  return [...perPractitioner, { practitioner_id: null, visits: 0, cancellations: 0, visit_seconds: 0, repeat_visits: 0, ...total }];
}
