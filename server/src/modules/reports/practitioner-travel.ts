// Practitioner travel: per practitioner, their visits, visit hours, travel (km and hours) and travel's share of the
// working day, with each day and each leg for the drill-down and the legs CSV. The legs are the travel-legs module's
// (route legs where a route says them, else the optimiser's travel model). The visit filters choose the visits that
// count; a leg counts when the visit it reaches counts (the leg home: when the visit it leaves counts). A working day
// runs from leaving the start place (the first visit's arrival less the first leg) to reaching the end place (the
// last visit's end plus the last leg); without those places, from the first arrival to the last visit's end.
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';
import { travelProviderFor } from '../optimizations';
import { LEGS_COUNTED, travelDays, type LegVisit, type TravelDay, type TravelLeg } from '../travel-legs';
import type { ReportFilters } from './filters';

type Row = Schemas['PractitionerTravelRow'];
type DayRow = Schemas['PractitionerTravelDay'];
type LegRow = Schemas['TravelLegRow'];
export type PractitionerTravelReport = {
  rows: Row[]; days: DayRow[]; legs: LegRow[];
  summary: Schemas['PractitionerTravelSummary'];
};

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

const durationOf = (visit: LegVisit) => visit.endsAt.getTime() - visit.startsAt.getTime();

function workingSecondsOf(day: TravelDay): number {
  const arrival = (visit: LegVisit) => (visit.arriveAt ?? visit.startsAt).getTime();
  const startLeg = day.legs.find((leg) => leg.kind === 'start');
  const endLeg = day.legs.find((leg) => leg.kind === 'end');
  const from = arrival(day.visits[0]) - (startLeg ? startLeg.seconds * 1000 : 0);
  const lastEnd = Math.max(...day.visits.map((visit) => arrival(visit) + durationOf(visit)));
  return Math.round((lastEnd + (endLeg ? endLeg.seconds * 1000 : 0) - from) / 1000);
}

const share = (travel: number, working: number) => (working > 0 ? Math.round((travel / working) * 1000) / 1000 : null);

export async function practitionerTravel(ctx: AppContext, businessAccountId: number, filters: ReportFilters): Promise<PractitionerTravelReport> {
  const range = travelRangeOf(filters);
  const counts = countsVisit(filters);
  const days = await travelDays(ctx.db, travelProviderFor(ctx.config), businessAccountId, { ...range, practitionerIds: filters.practitionerIds });
  const report: PractitionerTravelReport = {
    rows: [], days: [], legs: [],
    summary: {
      practitioners: 0, visits: 0, visit_seconds: 0, travel_seconds: 0, travel_metres: 0, working_seconds: 0, travel_share: null,
      route_legs: 0, estimate_legs: 0, unlocated_visits: 0, legs_counted: LEGS_COUNTED,
    },
  };
  const rowOf = new Map<number, Row>();
  for (const day of days) {
    const counted = day.visits.filter(counts);
    if (counted.length === 0) continue;
    const countedIds = new Set(counted.map((visit) => visit.id));
    const legs = day.legs.filter((leg) => countedIds.has(legVisitId(leg)));
    const dayRow: DayRow = {
      practitioner_id: day.practitionerId, day: day.day, visits: counted.length,
      visit_seconds: Math.round(counted.reduce((sum, visit) => sum + durationOf(visit), 0) / 1000),
      travel_seconds: legs.reduce((sum, leg) => sum + leg.seconds, 0), travel_metres: legs.reduce((sum, leg) => sum + leg.metres, 0),
      working_seconds: workingSecondsOf(day),
      route_legs: legs.filter((leg) => leg.source === 'route').length, estimate_legs: legs.filter((leg) => leg.source === 'estimate').length,
      unlocated_visits: day.unlocatedVisitIds.filter((id) => countedIds.has(id)).length,
    };
    report.days.push(dayRow);
    for (const leg of legs) {
      report.legs.push({
        practitioner_id: day.practitionerId, practitioner_name: day.practitionerName, day: day.day, kind: leg.kind,
        from_appointment_id: leg.fromAppointmentId, to_appointment_id: leg.toAppointmentId, from_name: leg.fromName, to_name: leg.toName,
        travel_seconds: leg.seconds, travel_metres: leg.metres, source: leg.source,
      });
    }
    let row = rowOf.get(day.practitionerId);
    if (!row) {
      row = {
        practitioner_id: day.practitionerId, practitioner_name: day.practitionerName, days: 0, visits: 0, visit_seconds: 0,
        travel_seconds: 0, travel_metres: 0, working_seconds: 0, travel_share: null, unlocated_visits: 0,
      };
      rowOf.set(day.practitionerId, row);
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
  report.summary.practitioners = report.rows.length;
  report.summary.travel_share = share(report.summary.travel_seconds, report.summary.working_seconds);
  return report;
}
