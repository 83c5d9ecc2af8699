// Practitioner travel: per practitioner, their visits, visit hours, travel (km and hours) and travel's share of the
// working day, read from the travel summary (ADR 0017: the travel-legs module's legs per practitioner-day, kept fresh
// by the change tracking); each day and each leg for the drill-down and the legs CSV (practitionerTravelLegs). The
// visit filters choose the visits that count; a leg counts when the visit it reaches counts (the leg home: when the
// visit it leaves counts). A working day runs from leaving the start place (the first visit's arrival less the first
// leg) to reaching the end place (the last visit's end plus the last leg); without those places, from the first
// arrival to the last visit's end.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';
import { travelProviderFor } from '../optimizations';
import { loadPractitionerDays } from '../practitioners';
import { LEGS_COUNTED, travelDays, type LegVisit, type TravelLeg } from '../travel-legs';
import { freshTravelSummary } from '../travel-summary';
import type { ReportFilters } from './filters';

type Row = Schemas['PractitionerTravelRow'];
type DayRow = Schemas['PractitionerTravelDay'];
type LegRow = Schemas['TravelLegRow'];
export type PractitionerTravelReport = { rows: Row[]; summary: Schemas['PractitionerTravelSummary'] };
export type PractitionerTravelLegs = { days: DayRow[]; legs: LegRow[] };

/** The range the travel reports need (their days are computed one by one). */
export function travelRangeOf(filters: ReportFilters): { startDate: string; endDate: string } {
  if (!filters.range) throw invalid('start_date and end_date are required.');
  return filters.range;
}

/** Whether a visit is one the visit filters count (the practitioner filter is applied when reading the days). */
export function countsVisit(filters: ReportFilters) {
  return (visit: LegVisit) =>
    (filters.appointmentTypeIds.length === 0 || (visit.appointmentTypeId !== null && filters.appointmentTypeIds.includes(visit.appointmentTypeId)))
    && (filters.businessLocationIds.length === 0 || (visit.businessLocationId !== null && filters.businessLocationIds.includes(visit.businessLocationId)));
}

/** The visit a leg is counted with: the one it reaches, or for the leg home the one it leaves. */
export const legVisitId = (leg: TravelLeg) => (leg.kind === 'end' ? leg.fromAppointmentId! : leg.toAppointmentId!);

const idsIn = (column: SQL, ids: readonly number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

/** The summary's visits the filters count, in the range (the practitioners' ids, or everyone's when empty). */
export function summaryVisitsWhere(businessAccountId: number, range: { startDate: string; endDate: string }, filters: ReportFilters, practitionerIds: readonly number[]): SQL {
  return sql`v.business_account_id = ${businessAccountId} AND v.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date
    ${idsIn(sql`v.practitioner_id`, practitionerIds)}
    ${idsIn(sql`v.appointment_type_id`, filters.appointmentTypeIds)}
    ${idsIn(sql`v.business_location_id`, filters.businessLocationIds)}`;
}

interface DayFigures {
  practitioner_id: number; day: string; visits: string | number; visit_ms: string | number; travel_seconds: string | number; travel_metres: string | number;
  working_seconds: number; route_legs: string | number; estimate_legs: string | number; unlocated_visits: string | number;
}

/** Each practitioner-day with a counted visit, from the summary (fresh for the range first). */
async function dayRows(ctx: AppContext, businessAccountId: number, filters: ReportFilters, practitionerIds: readonly number[]): Promise<DayRow[]> {
  const range = travelRangeOf(filters);
  await freshTravelSummary(ctx.db, ctx.config, businessAccountId, range, practitionerIds);
  const rows = await queryRows<DayFigures>(ctx.db, sql`
    SELECT v.practitioner_id, to_char(v.day, 'YYYY-MM-DD') AS day, count(*) AS visits, sum(v.visit_ms) AS visit_ms,
           coalesce(sum(v.in_seconds), 0) + coalesce(sum(v.out_seconds), 0) AS travel_seconds,
           coalesce(sum(v.in_metres), 0) + coalesce(sum(v.out_metres), 0) AS travel_metres,
           min(d.working_seconds) AS working_seconds,
           count(*) FILTER (WHERE v.in_source = 'route') + count(*) FILTER (WHERE v.out_source = 'route') AS route_legs,
           count(*) FILTER (WHERE v.in_source = 'estimate') + count(*) FILTER (WHERE v.out_source = 'estimate') AS estimate_legs,
           count(*) FILTER (WHERE NOT v.located) AS unlocated_visits
    FROM travel_summary_visits v
    JOIN travel_summary_days d ON d.business_account_id = v.business_account_id AND d.day = v.day AND d.practitioner_id = v.practitioner_id
    WHERE ${summaryVisitsWhere(businessAccountId, range, filters, practitionerIds)}
    GROUP BY v.practitioner_id, v.day`);
  return rows.map((row) => ({
    practitioner_id: row.practitioner_id, day: row.day, visits: Number(row.visits), visit_seconds: Math.round(Number(row.visit_ms) / 1000),
    travel_seconds: Number(row.travel_seconds), travel_metres: Number(row.travel_metres), working_seconds: Number(row.working_seconds),
    route_legs: Number(row.route_legs), estimate_legs: Number(row.estimate_legs), unlocated_visits: Number(row.unlocated_visits),
  }));
}

/** Practitioners' names by id (inactive ones too). */
async function namesOf(db: Db, businessAccountId: number, ids: number[], day: string): Promise<Map<number, string>> {
  return new Map((await loadPractitionerDays(db, businessAccountId, ids, day)).map((practitioner) => [practitioner.practitionerId, practitioner.name]));
}

const share = (travel: number, working: number) => (working > 0 ? Math.round((travel / working) * 1000) / 1000 : null);

export async function practitionerTravel(ctx: AppContext, businessAccountId: number, filters: ReportFilters): Promise<PractitionerTravelReport> {
  const range = travelRangeOf(filters);
  const days = await dayRows(ctx, businessAccountId, filters, filters.practitionerIds);
  const names = await namesOf(ctx.db, businessAccountId, [...new Set(days.map((day) => day.practitioner_id))], range.startDate);
  const nameOf = (id: number) => names.get(id) ?? `Practitioner ${id}`;
  const report: PractitionerTravelReport = {
    rows: [],
    summary: {
      practitioners: 0, visits: 0, visit_seconds: 0, travel_seconds: 0, travel_metres: 0, working_seconds: 0, travel_share: null,
      route_legs: 0, estimate_legs: 0, unlocated_visits: 0, legs_counted: LEGS_COUNTED,
    },
  };
  const rowOf = new Map<number, Row>();
  for (const dayRow of days) {
    let row = rowOf.get(dayRow.practitioner_id);
    if (!row) {
      row = {
        practitioner_id: dayRow.practitioner_id, practitioner_name: nameOf(dayRow.practitioner_id), days: 0, visits: 0, visit_seconds: 0,
        travel_seconds: 0, travel_metres: 0, working_seconds: 0, travel_share: null, unlocated_visits: 0,
      };
      rowOf.set(dayRow.practitioner_id, row);
      report.rows.push(row);
    }
    row.days += 1;
    for (const key of ['visits', 'visit_seconds', 'travel_seconds', 'travel_metres', 'working_seconds', 'unlocated_visits'] as const) {
      row[key] += dayRow[key];
      report.summary[key] += dayRow[key];
    }
    report.summary.route_legs += dayRow.route_legs;
    report.summary.estimate_legs += dayRow.estimate_legs;
  }
  for (const row of report.rows) row.travel_share = share(row.travel_seconds, row.working_seconds);
  report.rows.sort((a, b) => a.practitioner_name.localeCompare(b.practitioner_name) || a.practitioner_id - b.practitioner_id);
  report.summary.practitioners = report.rows.length;
  report.summary.travel_share = share(report.summary.travel_seconds, report.summary.working_seconds);
  return report;
}

/**
 * The drill-down and the legs CSV: the practitioner-days (from the summary) and their counted legs (computed by the
 * travel-legs module: for one practitioner a few small matrices; for every practitioner, the slow way).
 */
export async function practitionerTravelLegs(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, only: { practitionerId?: number; day?: string },
): Promise<PractitionerTravelLegs> {
  const range = travelRangeOf(filters);
  if (only.day !== undefined && (only.day < range.startDate || only.day > range.endDate)) throw invalid(`day (${only.day}) must be within start_date and end_date.`);
  const practitionerIds = only.practitionerId === undefined ? filters.practitionerIds
    : filters.practitionerIds.length === 0 || filters.practitionerIds.includes(only.practitionerId) ? [only.practitionerId] : [];
  if (only.practitionerId !== undefined && practitionerIds.length === 0) return { days: [], legs: [] };
  const days = await dayRows(ctx, businessAccountId, filters, practitionerIds);
  const legRange = only.day === undefined ? range : { startDate: only.day, endDate: only.day };
  const counts = countsVisit(filters);
  const travel = await travelDays(ctx.db, travelProviderFor(ctx.config), businessAccountId, { ...legRange, practitionerIds });
  const legs: LegRow[] = [];
  const order = new Map<number, number>();
  for (const day of travel) {
    if (!order.has(day.practitionerId)) order.set(day.practitionerId, order.size);
    const counted = new Set(day.visits.filter(counts).map((visit) => visit.id));
    for (const leg of day.legs) {
      if (!counted.has(legVisitId(leg))) continue;
      legs.push({
        practitioner_id: day.practitionerId, practitioner_name: day.practitionerName, day: day.day, kind: leg.kind,
        from_appointment_id: leg.fromAppointmentId, to_appointment_id: leg.toAppointmentId, from_name: leg.fromName, to_name: leg.toName,
        travel_seconds: leg.seconds, travel_metres: leg.metres, source: leg.source,
      });
    }
  }
  const names = await namesOf(ctx.db, businessAccountId, [...new Set(days.map((day) => day.practitioner_id))], range.startDate);
  const nameOf = (id: number) => names.get(id) ?? `Practitioner ${id}`;
  days.sort((a, b) => nameOf(a.practitioner_id).localeCompare(nameOf(b.practitioner_id)) || a.practitioner_id - b.practitioner_id || a.day.localeCompare(b.day));
  return { days, legs };
}
