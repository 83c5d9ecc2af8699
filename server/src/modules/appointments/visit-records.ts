// Visit records for the reports: each visit of a range that is not cancelled, with
// what its steps said since it was last reopened — the actual arrival (Arrived) and departure (Done), the place of
// each, the distance to the visit's point, whether the arrival was far, a Could not attend's reason and who recorded
// each step — and the last change of its planned arrival made after its day (its change log). The
// appointments module owns visit_steps (and its rule that a reopening starts the visit over); the reports module reads
// it only through this function.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import type { NotAttendedReason, VisitState, VisitStepKind } from '../../db/schema-visits';
import { DEFAULT_OPTIMIZATION_SETTINGS } from '../optimization-settings';

export interface VisitRecordFilter {
  /** yyyy-MM-dd days in the business's time zone, both inclusive. */
  startDate: string;
  endDate: string;
  /** None: every one. */
  practitionerIds: number[];
  appointmentTypeIds: number[];
  businessLocationIds: number[];
  /** Only the visits with a step since they were last reopened (not 'not_started'). */
  startedOnly?: boolean;
}

export interface VisitRecord {
  appointmentId: number;
  startsAt: Date;
  endsAt: Date;
  /** The planned arrival: the routed arrival time, else the booked start. */
  plannedArrivalAt: Date;
  /** The rule book's booked-time tolerance of the visit (its type's, else the business's). */
  toleranceMinutes: number;
  clientId: number | null;
  clientName: string | null;
  practitionerId: number;
  practitionerName: string;
  appointmentTypeId: number | null;
  appointmentTypeName: string | null;
  lat: number | null;
  lng: number | null;
  visitState: VisitState;
  onMyWayAt: Date | null;
  arrivedAt: Date | null;
  arrivedLat: number | null;
  arrivedLng: number | null;
  arrivedDistanceM: number | null;
  arrivedFarFromClient: boolean;
  doneAt: Date | null;
  doneLat: number | null;
  doneLng: number | null;
  doneDistanceM: number | null;
  couldNotAttendAt: Date | null;
  reason: NotAttendedReason | null;
  reasonText: string | null;
  /** The steps since the visit was last reopened, in order, with who recorded each. */
  recorders: StepRecorder[];
  /** The last change of the planned arrival made after the visit's day, by whom (the change log's name) and when. */
  arrivalCorrection: { by: string | null; at: Date } | null;
}

export interface StepRecorder {
  step: VisitStepKind;
  /** Recorded from the practitioner's own login (their phone), else by the named user. */
  byPractitioner: boolean;
  name: string | null;
}

interface Row {
  appointment_id: number; starts_at: string | Date; ends_at: string | Date; planned_arrival_at: string | Date; tolerance_minutes: number | string;
  client_id: number | null; client_name: string | null; practitioner_id: number; practitioner_name: string;
  appointment_type_id: number | null; appointment_type_name: string | null; lat: number | null; lng: number | null; visit_state: VisitState;
  on_my_way_at: string | Date | null; arrived_at: string | Date | null; arrived_lat: number | null; arrived_lng: number | null;
  arrived_distance_m: number | null; arrived_far: boolean | null; done_at: string | Date | null; done_lat: number | null; done_lng: number | null;
  done_distance_m: number | null; could_not_attend_at: string | Date | null; reason: NotAttendedReason | null; reason_text: string | null;
  recorders: { step: VisitStepKind; by_practitioner: boolean; name: string | null }[] | string | null;
  corrected_by: string | null; corrected_at: string | Date | null;
}

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);
const dateOf = (value: string | Date) => (value instanceof Date ? value : new Date(value));
const dateOrNull = (value: string | Date | null) => (value === null ? null : dateOf(value));
const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
/** The steps' recorders as the database answers them (json: parsed by PGlite and node-postgres alike, text else). */
function recordersOf(value: Row['recorders']): StepRecorder[] {
  const list = typeof value === 'string' ? JSON.parse(value) as Exclude<Row['recorders'], string> : value;
  return (list ?? []).map((entry) => ({ step: entry.step, byPractitioner: entry.by_practitioner, name: entry.name }));
}

/**
 * The range's visits that are not cancelled, by scheduled start, then practitioner and id, each with its steps since it
 * was last reopened (each step happens at most once between reopenings).
 */
export async function visitRecords(db: DbOrTx, businessAccountId: number, filter: VisitRecordFilter): Promise<VisitRecord[]> {
  const rows = await queryRows<Row>(db, sql`
    WITH bounds AS (
      SELECT ((${filter.startDate}::date)::timestamp AT TIME ZONE b.time_zone) AS from_at,
             ((${filter.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone) AS to_at, b.time_zone
      FROM business_accounts b WHERE b.id = ${businessAccountId}
    )
    SELECT a.id AS appointment_id, a.starts_at, a.ends_at, coalesce(a.arrive_at, a.starts_at) AS planned_arrival_at,
           coalesce(t.tolerance_minutes, os.tolerance_minutes, ${DEFAULT_OPTIMIZATION_SETTINGS.tolerance_minutes}) AS tolerance_minutes,
           a.client_id, btrim(c.first_name || ' ' || c.last_name) AS client_name,
           a.practitioner_id, btrim(p.first_name || ' ' || p.last_name) AS practitioner_name,
           a.appointment_type_id, t.name AS appointment_type_name, a.lat, a.lng, a.visit_state,
           s.on_my_way_at, s.arrived_at, s.arrived_lat, s.arrived_lng, s.arrived_distance_m, s.arrived_far,
           s.done_at, s.done_lat, s.done_lng, s.done_distance_m, s.could_not_attend_at, s.reason, s.reason_text, s.recorders,
           corrected.whodunnit AS corrected_by, corrected.created_at AS corrected_at
    FROM appointments a
    CROSS JOIN bounds
    JOIN practitioners p ON p.id = a.practitioner_id
    LEFT JOIN clients c ON c.id = a.client_id
    LEFT JOIN appointment_types t ON t.id = a.appointment_type_id
    LEFT JOIN optimization_settings os ON os.business_account_id = a.business_account_id
    LEFT JOIN LATERAL (
      SELECT max(vs.at) FILTER (WHERE vs.step = 'on_my_way') AS on_my_way_at,
             max(vs.at) FILTER (WHERE vs.step = 'arrived') AS arrived_at,
             max(vs.lat) FILTER (WHERE vs.step = 'arrived') AS arrived_lat,
             max(vs.lng) FILTER (WHERE vs.step = 'arrived') AS arrived_lng,
             max(vs.distance_m) FILTER (WHERE vs.step = 'arrived') AS arrived_distance_m,
             bool_or(vs.far_from_client) FILTER (WHERE vs.step = 'arrived') AS arrived_far,
             max(vs.at) FILTER (WHERE vs.step = 'done') AS done_at,
             max(vs.lat) FILTER (WHERE vs.step = 'done') AS done_lat,
             max(vs.lng) FILTER (WHERE vs.step = 'done') AS done_lng,
             max(vs.distance_m) FILTER (WHERE vs.step = 'done') AS done_distance_m,
             max(vs.at) FILTER (WHERE vs.step = 'could_not_attend') AS could_not_attend_at,
             max(vs.reason) AS reason, max(vs.reason_text) AS reason_text,
             json_agg(json_build_object('step', vs.step, 'by_practitioner', coalesce(u.role = 'PRACTITIONER', false), 'name', vs.recorded_by_name) ORDER BY vs.id) AS recorders
      FROM visit_steps vs
      LEFT JOIN users u ON u.id = vs.recorded_by_user_id
      -- A visit not started has no step since it was last reopened: its steps are not read at all.
      WHERE a.visit_state <> 'not_started' AND vs.appointment_id = a.id AND vs.business_account_id = a.business_account_id
        AND vs.id > coalesce((SELECT max(r.id) FROM visit_steps r WHERE r.appointment_id = a.id AND r.step = 'reopened'), 0)
    ) s ON true
    LEFT JOIN LATERAL (
      SELECT v.whodunnit, v.created_at FROM versions v
      WHERE v.business_account_id = a.business_account_id AND v.item_type = 'Appointment' AND v.item_id = a.id
        AND v.object_changes ? 'arrive_at'
        AND v.created_at >= (((a.starts_at AT TIME ZONE bounds.time_zone)::date + 1)::timestamp AT TIME ZONE bounds.time_zone)
      ORDER BY v.created_at DESC, v.id DESC LIMIT 1
    ) corrected ON true
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
      AND a.starts_at >= bounds.from_at AND a.starts_at < bounds.to_at
      ${filter.startedOnly ? sql`AND a.visit_state <> 'not_started'` : sql``}
      ${idsIn(sql`a.practitioner_id`, filter.practitionerIds)}
      ${idsIn(sql`a.appointment_type_id`, filter.appointmentTypeIds)}
      ${idsIn(sql`a.business_location_id`, filter.businessLocationIds)}
    ORDER BY a.starts_at, practitioner_name, a.id`);
  return rows.map((row) => ({
    appointmentId: row.appointment_id,
    startsAt: dateOf(row.starts_at),
    endsAt: dateOf(row.ends_at),
    plannedArrivalAt: dateOf(row.planned_arrival_at),
    toleranceMinutes: Number(row.tolerance_minutes),
    clientId: row.client_id,
    clientName: row.client_name,
    practitionerId: row.practitioner_id,
    practitionerName: row.practitioner_name,
    appointmentTypeId: row.appointment_type_id,
    appointmentTypeName: row.appointment_type_name,
    lat: numberOrNull(row.lat),
    lng: numberOrNull(row.lng),
    visitState: row.visit_state,
    onMyWayAt: dateOrNull(row.on_my_way_at),
    arrivedAt: dateOrNull(row.arrived_at),
    arrivedLat: numberOrNull(row.arrived_lat),
    arrivedLng: numberOrNull(row.arrived_lng),
    arrivedDistanceM: numberOrNull(row.arrived_distance_m),
    arrivedFarFromClient: row.arrived_far === true,
    doneAt: dateOrNull(row.done_at),
    doneLat: numberOrNull(row.done_lat),
    doneLng: numberOrNull(row.done_lng),
    doneDistanceM: numberOrNull(row.done_distance_m),
    couldNotAttendAt: dateOrNull(row.could_not_attend_at),
    reason: row.reason,
    reasonText: row.reason_text,
    recorders: recordersOf(row.recorders),
    arrivalCorrection: row.corrected_at === null ? null : { by: row.corrected_by, at: dateOf(row.corrected_at) },
  }));
}
