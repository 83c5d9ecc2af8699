// Practitioner travel: per practitioner, their visits, visit hours, travel (km and hours) and travel's share of the
// working day, read from the travel summary (ADR 0017: the travel module's legs per practitioner-day, kept fresh
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
import { loadPractitionerDays } from '../practitioners';
import { travelProviderFor } from '../schedule';
import { DAY_TOTALS, freshTravelSummary, LEGS_COUNTED, travelDays, type LegVisit, type TravelLeg } from '../travel';
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

type Count = string | number;
interface Totals {
  practitioner_id: number; day: string | null; days: Count; visits: Count; visit_seconds: Count; travel_seconds: Count; travel_metres: Count;
  working_seconds: Count; route_legs: Count; estimate_legs: Count; unlocated_visits: Count; idle_seconds: Count; punctual_visits: Count;
}
export type TravelTotals = Omit<DayRow, 'day'> & { day: string | null; days: number; idle_seconds: number; punctual_visits: number };

/**
 * The summary's totals (fresh for the range first) per practitioner-day with a counted visit, or per practitioner:
 * without type or location filters, the days' stored totals; with them, the chosen visits' added up per day.
 */
export async function travelTotals(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, practitionerIds: readonly number[], per: 'day' | 'practitioner',
): Promise<TravelTotals[]> {
  const range = travelRangeOf(filters);
  await freshTravelSummary(ctx.db, ctx.config, businessAccountId, range, practitionerIds);
  const days = filters.appointmentTypeIds.length === 0 && filters.businessLocationIds.length === 0
    ? sql`
      SELECT d.practitioner_id, d.day, d.visits, d.visit_seconds, d.travel_seconds, d.travel_metres, d.working_seconds, d.route_legs,
             d.estimate_legs, d.unlocated_visits, d.idle_seconds, d.punctual_visits
      FROM travel_summary_days d
      WHERE d.business_account_id = ${businessAccountId} AND d.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date
        ${idsIn(sql`d.practitioner_id`, practitionerIds)} AND d.visits > 0`
    : sql`
      SELECT v.practitioner_id, v.day, ${DAY_TOTALS}, min(d.working_seconds) AS working_seconds
      FROM travel_summary_visits v
      JOIN travel_summary_days d ON d.business_account_id = v.business_account_id AND d.day = v.day AND d.practitioner_id = v.practitioner_id
      WHERE ${summaryVisitsWhere(businessAccountId, range, filters, practitionerIds)}
      GROUP BY v.practitioner_id, v.day`;
  const rows = await queryRows<Totals>(ctx.db, per === 'day'
    ? sql`SELECT s.*, to_char(s.day, 'YYYY-MM-DD') AS day, 1 AS days FROM (${days}) s`
    : sql`
      SELECT s.practitioner_id, NULL AS day, count(*) AS days, sum(s.visits) AS visits, sum(s.visit_seconds) AS visit_seconds,
             sum(s.travel_seconds) AS travel_seconds, sum(s.travel_metres) AS travel_metres, sum(s.working_seconds) AS working_seconds,
             sum(s.route_legs) AS route_legs, sum(s.estimate_legs) AS estimate_legs, sum(s.unlocated_visits) AS unlocated_visits,
             sum(s.idle_seconds) AS idle_seconds, sum(s.punctual_visits) AS punctual_visits
      FROM (${days}) s GROUP BY s.practitioner_id`);
  return rows.map((row) => ({
    practitioner_id: row.practitioner_id, day: row.day, days: Number(row.days), visits: Number(row.visits), visit_seconds: Number(row.visit_seconds),
    travel_seconds: Number(row.travel_seconds), travel_metres: Number(row.travel_metres), working_seconds: Number(row.working_seconds),
    route_legs: Number(row.route_legs), estimate_legs: Number(row.estimate_legs), unlocated_visits: Number(row.unlocated_visits),
    idle_seconds: Number(row.idle_seconds), punctual_visits: Number(row.punctual_visits),
  }));
}

/** Practitioners' names by id (inactive ones too). */
async function namesOf(db: Db, businessAccountId: number, ids: number[], day: string): Promise<Map<number, string>> {
  return new Map((await loadPractitionerDays(db, businessAccountId, ids, day)).map((practitioner) => [practitioner.practitionerId, practitioner.name]));
}

const share = (travel: number, working: number) => (working > 0 ? Math.round((travel / working) * 1000) / 1000 : null);

export async function practitionerTravel(ctx: AppContext, businessAccountId: number, filters: ReportFilters): Promise<PractitionerTravelReport> {
  const range = travelRangeOf(filters);
  const totals = await travelTotals(ctx, businessAccountId, filters, filters.practitionerIds, 'practitioner');
  const names = await namesOf(ctx.db, businessAccountId, totals.map((row) => row.practitioner_id), range.startDate);
  const report: PractitionerTravelReport = {
    rows: [],
    summary: {
      practitioners: 0, visits: 0, visit_seconds: 0, travel_seconds: 0, travel_metres: 0, working_seconds: 0, travel_share: null,
      route_legs: 0, estimate_legs: 0, unlocated_visits: 0, legs_counted: LEGS_COUNTED,
    },
  };
  for (const total of totals) {
    report.rows.push({
      practitioner_id: total.practitioner_id, practitioner_name: names.get(total.practitioner_id) ?? `Practitioner ${total.practitioner_id}`,
      days: total.days, visits: total.visits, visit_seconds: total.visit_seconds, travel_seconds: total.travel_seconds, travel_metres: total.travel_metres,
      working_seconds: total.working_seconds, travel_share: null, unlocated_visits: total.unlocated_visits,
    });
    for (const key of ['visits', 'visit_seconds', 'travel_seconds', 'travel_metres', 'working_seconds', 'unlocated_visits', 'route_legs', 'estimate_legs'] as const) {
      report.summary[key] += total[key];
    }
  }
  for (const row of report.rows) row.travel_share = share(row.travel_seconds, row.working_seconds);
  report.rows.sort((a, b) => a.practitioner_name.localeCompare(b.practitioner_name) || a.practitioner_id - b.practitioner_id);
  report.summary.practitioners = report.rows.length;
  report.summary.travel_share = share(report.summary.travel_seconds, report.summary.working_seconds);
  return report;
}

/**
 * The drill-down and the legs CSV: the practitioner-days (from the summary) and their counted legs (computed by the
 * travel module: for one practitioner a few small matrices; for every practitioner, the slow way).
 */
export async function practitionerTravelLegs(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, only: { practitionerId?: number; day?: string },
): Promise<PractitionerTravelLegs> {
  const range = travelRangeOf(filters);
  if (only.day !== undefined && (only.day < range.startDate || only.day > range.endDate)) throw invalid(`day (${only.day}) must be within start_date and end_date.`);
  const practitionerIds = only.practitionerId === undefined ? filters.practitionerIds
    : filters.practitionerIds.length === 0 || filters.practitionerIds.includes(only.practitionerId) ? [only.practitionerId] : [];
  if (only.practitionerId !== undefined && practitionerIds.length === 0) return { days: [], legs: [] };
  const days: DayRow[] = (await travelTotals(ctx, businessAccountId, filters, practitionerIds, 'day'))
    .map(({ days: _days, idle_seconds: _idle, punctual_visits: _punctual, ...day }) => ({ ...day, day: day.day! }));
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
