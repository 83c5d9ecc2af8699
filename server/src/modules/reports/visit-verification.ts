// Visit verification (EVV): every visit of the range that is not cancelled, with what its steps recorded —
// On my way, the actual in (Arrived) and out (Done), their places and distances to the visit's point, the far-arrival
// flag, the status, a Could not attend's reason and who recorded the steps (the practitioner's phone or a named
// coordinator) — and a correction of its planned arrival made after its day, read through the appointments module
// (the owner of visit_steps). Beside the rows, actual vs planned:
// - punctuality per visit, from its check-in when it has one; a visit over without one is not verified (missed), never
//   on time; one not over yet is judged from planned times (actual-vs-planned.ts). The headline is from check-ins only:
//   a plan says nothing of what happened, so its figure is reported apart;
// - visit duration actual (Arrived → Done) vs booked, per appointment type;
// - visits that could not be attended, by reason.
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { STEP_WORDS, visitRecords, type StepRecorder } from '../appointments';
import { plannedPunctuality, punctualityOf } from './actual-vs-planned';
import { pageMeta, pageSlice, type ReportFilters, type ReportPage } from './filters';
import { travelRangeOf } from './practitioner-travel';

type Row = Schemas['VisitVerificationRow'];
type Summary = Schemas['VisitVerificationSummary'];
type DurationRow = Schemas['VisitDurationRow'];
type Reason = Schemas['NotAttendedReason'];
export interface VisitVerificationReport {
  rows: Row[]; meta: { page: number; per_page: number; total: number }; summary: Summary; durations: DurationRow[]; missed: { reason: Reason; visits: number }[];
}

/** The states in the order a visit goes through them (the status column sorts so). */
const STATES: readonly Row['status'][] = ['not_started', 'on_my_way', 'arrived', 'done', 'could_not_attend'];

/** What the table sorts by (each column's value; null last whichever the direction). */
const SORTS = {
  starts_at: (row: Row) => row.starts_at,
  visit: (row: Row) => row.appointment_id,
  client: (row: Row) => row.client_name?.toLowerCase() ?? null,
  practitioner: (row: Row) => row.practitioner_name.toLowerCase(),
  type: (row: Row) => row.appointment_type_name?.toLowerCase() ?? null,
  status: (row: Row) => STATES.indexOf(row.status),
  in: (row: Row) => row.actual_in_at,
  in_distance: (row: Row) => row.in_distance_m,
  far: (row: Row) => (row.far_from_client ? 1 : 0),
  out: (row: Row) => row.actual_out_at,
  actual: (row: Row) => row.actual_seconds,
  punctual: (row: Row) => (row.punctual === null ? null : row.punctual ? 1 : 0),
  reason: (row: Row) => row.reason,
} satisfies Record<string, (row: Row) => string | number | null>;
export type VisitVerificationSort = keyof typeof SORTS;

/** The rows in the table's order: the column's values (empty last), ties by scheduled start, then visit. */
function sorted(rows: Row[], sort: VisitVerificationSort, descending: boolean): Row[] {
  const value = SORTS[sort];
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (x < y ? -1 : 1);
    }
    return a.starts_at.localeCompare(b.starts_at) || a.appointment_id - b.appointment_id;
  });
}

const REASONS: readonly Reason[] = ['client_not_home', 'refused', 'hospital', 'other'];
const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : null);
const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const PRACTITIONER_PHONE = "Practitioner's phone";

/** "Practitioner's phone", "Alex Morgan", or when several recorded the steps each with theirs: "Practitioner's phone (On my way); Alex Morgan (Arrived, Done)". */
function recordedByOf(recorders: readonly StepRecorder[]): string | null {
  const steps = new Map<string, string[]>();
  for (const recorder of recorders) {
    const who = recorder.byPractitioner ? PRACTITIONER_PHONE : recorder.name ?? 'A removed user';
    steps.set(who, [...(steps.get(who) ?? []), STEP_WORDS[recorder.step]]);
  }
  if (steps.size <= 1) return [...steps.keys()][0] ?? null;
  return [...steps].map(([who, words]) => `${who} (${words.join(', ')})`).join('; ');
}

export async function visitVerification(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, table: { sort: VisitVerificationSort; page: ReportPage }, now = new Date(),
): Promise<VisitVerificationReport> {
  const range = travelRangeOf(filters);
  const [records, planned] = await Promise.all([
    visitRecords(ctx.db, businessAccountId, { ...range, practitionerIds: filters.practitionerIds, appointmentTypeIds: filters.appointmentTypeIds, businessLocationIds: filters.businessLocationIds }),
    plannedPunctuality(ctx, businessAccountId, filters, range),
  ]);

  const rows = records.map((record): Row => {
    const notVerified = record.arrivedAt === null && record.visitState !== 'could_not_attend' && record.endsAt.getTime() <= now.getTime();
    const { punctual, from } = notVerified ? { punctual: null, from: null } : punctualityOf(record, planned.get(record.appointmentId));
    return {
      appointment_id: record.appointmentId,
      client_id: record.clientId,
      client_name: record.clientName,
      practitioner_id: record.practitionerId,
      practitioner_name: record.practitionerName,
      appointment_type_name: record.appointmentTypeName,
      starts_at: record.startsAt.toISOString(),
      ends_at: record.endsAt.toISOString(),
      planned_arrival_at: record.plannedArrivalAt.toISOString(),
      status: record.visitState,
      on_my_way_at: iso(record.onMyWayAt),
      actual_in_at: iso(record.arrivedAt),
      in_lat: record.arrivedLat,
      in_lng: record.arrivedLng,
      in_distance_m: record.arrivedDistanceM,
      far_from_client: record.arrivedFarFromClient,
      actual_out_at: iso(record.doneAt),
      out_lat: record.doneLat,
      out_lng: record.doneLng,
      out_distance_m: record.doneDistanceM,
      reason: record.reason,
      reason_text: record.reasonText,
      actual_seconds: record.arrivedAt && record.doneAt ? Math.round((record.doneAt.getTime() - record.arrivedAt.getTime()) / 1000) : null,
      booked_seconds: Math.round((record.endsAt.getTime() - record.startsAt.getTime()) / 1000),
      punctual,
      punctuality_from: from,
      not_verified: notVerified,
      recorded_by: recordedByOf(record.recorders),
      arrival_corrected_by: record.arrivalCorrection ? record.arrivalCorrection.by ?? 'the system' : null,
      arrival_corrected_at: iso(record.arrivalCorrection?.at ?? null),
    };
  });

  const count = (test: (row: Row) => boolean) => rows.reduce((acc, row) => acc + (test(row) ? 1 : 0), 0);
  const checkedIn = count((row) => row.punctuality_from === 'check_in');
  const checkedInOnTime = count((row) => row.punctuality_from === 'check_in' && row.punctual === true);
  const plannedOnly = count((row) => row.punctuality_from === 'planned');
  const plannedPunctual = count((row) => row.punctuality_from === 'planned' && row.punctual === true);
  const summary: Summary = {
    visits: rows.length,
    not_started: count((row) => row.status === 'not_started'),
    on_my_way: count((row) => row.status === 'on_my_way'),
    arrived: count((row) => row.status === 'arrived'),
    done: count((row) => row.status === 'done'),
    could_not_attend: count((row) => row.status === 'could_not_attend'),
    far_from_client: count((row) => row.far_from_client),
    not_verified: count((row) => row.not_verified),
    checked_in: checkedIn,
    checked_in_on_time: checkedInOnTime,
    planned_only: plannedOnly,
    planned_punctual: plannedPunctual,
    punctuality: ratio(checkedInOnTime, checkedIn),
    planned_punctuality: ratio(plannedPunctual, plannedOnly),
  };

  // Durations per type: the visits with both an actual in and out.
  const byType = new Map<string, { id: number | null; name: string; visits: number; booked: number; actual: number }>();
  records.forEach((record, index) => {
    const actual = rows[index].actual_seconds;
    if (actual === null) return;
    const key = String(record.appointmentTypeId ?? 'none');
    const group = byType.get(key) ?? { id: record.appointmentTypeId, name: record.appointmentTypeName ?? 'No appointment type', visits: 0, booked: 0, actual: 0 };
    group.visits += 1;
    group.booked += rows[index].booked_seconds;
    group.actual += actual;
    byType.set(key, group);
  });
  const durations = [...byType.values()]
    .sort((a, b) => (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || (a.id ?? 0) - (b.id ?? 0))
    .map((group): DurationRow => {
      const booked = Math.round(group.booked / group.visits);
      const actual = Math.round(group.actual / group.visits);
      return { appointment_type_id: group.id, appointment_type_name: group.name, visits: group.visits, booked_seconds: booked, actual_seconds: actual, difference_seconds: actual - booked };
    });

  const missed = REASONS.map((reason) => ({ reason, visits: count((row) => row.status === 'could_not_attend' && row.reason === reason) }));
  return { rows: pageSlice(sorted(rows, table.sort, table.page.descending), table.page), meta: pageMeta(table.page, rows.length), summary, durations, missed };
}
