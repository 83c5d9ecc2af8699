// Appointment reads. The JSON is built by PostgreSQL itself (json_build_object) and handed on as text: parsing rows,
// mapping them and serialising them again in Node cost several times what the query does.
// The range list is lean: each appointment names its client, practitioner and type by id and those come once each
// beside the list, which keeps a busy day (hundreds of visits, the same few dozen practitioners) small on the wire.
// The by-id read answers the full Appointment.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { appointments } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import { DEFAULT_OPTIMIZATION_SETTINGS } from '../optimization-settings';

export interface AppointmentScope {
  businessAccountId: number;
  /** Practitioners the caller is limited to; null = all of the business's. */
  practitionerIds: number[] | null;
}

export interface AppointmentRangeFilter {
  startDate: string;
  /** Inclusive. */
  endDate: string;
  practitionerIds?: number[];
  appointmentTypeIds?: number[];
  businessLocationIds?: number[];
}

/** One page of the range; without it, the whole range. */
export interface AppointmentPage {
  page: number;
  perPage: number;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const fullName = (table: string) => `btrim(${table}.first_name || ' ' || ${table}.last_name)`;

/**
 * How precise the visit's point is, for the row aliased `table`: a visit is placed at its client's point (imports copy
 * it, a corrected pin moves the upcoming visits), so it is the client's precision; 'none' without a point, and
 * 'suburb' (the least a point can claim) in the odd case of a point whose client has none.
 */
const visitPrecision = (table: string) => `CASE WHEN ${table}.lat IS NULL OR ${table}.lng IS NULL THEN 'none'
    ELSE coalesce((SELECT nullif(c.geo_precision, 'none') FROM clients c WHERE c.id = ${table}.client_id), 'suburb') END`;

/**
 * The availability the client of the row aliased `table` had on the visit's day when it has changed since (null when
 * the client's current availability was already in force then): see client_past_availabilities (migration 0073).
 */
const pastAvailability = (table: string) => `(SELECT pa.availability FROM client_past_availabilities pa
    WHERE pa.client_id = ${table}.client_id AND pa.valid_until > ${table}.starts_at ORDER BY pa.valid_until LIMIT 1)`;

/**
 * The other half of a double-handed visit of the row aliased `table` (the rule book's pairing: the client's other
 * booking at the same start with another practitioner, not cancelled; the lowest id of several), or null.
 */
/** The visit's latest write to the PMS (bookings, migration 0103) as the contract's PmsWrite; null when Rounds never wrote it. */
const latestPmsWrite = (table: string) => `(SELECT json_build_object(
    'id', w.id, 'appointment_id', w.appointment_id, 'kind', w.kind, 'state', w.state, 'message', w.message, 'differences', w.differences,
    'attempts', w.attempts, 'created_by', w.created_by, 'created_at', ${iso('w.created_at')}, 'updated_at', ${iso('w.updated_at')})
  FROM pms_writes w WHERE w.appointment_id = ${table}.id ORDER BY w.id DESC LIMIT 1)`;

const partnerJson = (table: string) => `CASE WHEN ${table}.cancelled_at IS NULL AND ${table}.client_id IS NOT NULL THEN (
    SELECT json_build_object('appointment_id', o.id, 'practitioner_id', o.practitioner_id, 'practitioner_name', ${fullName('op')})
    FROM appointments o JOIN practitioners op ON op.id = o.practitioner_id
    WHERE o.client_id = ${table}.client_id AND o.starts_at = ${table}.starts_at AND o.practitioner_id <> ${table}.practitioner_id
      AND o.cancelled_at IS NULL AND o.business_account_id = ${table}.business_account_id
    ORDER BY o.id LIMIT 1) END`;

/**
 * The visit's actual times and what its steps said since it was last reopened (VisitProgress), for the row aliased
 * `table`; null while it is not started. Each step happens at most once between reopenings.
 */
const visitProgress = (table: string) => `CASE WHEN ${table}.visit_state = 'not_started' THEN NULL ELSE (
    SELECT json_build_object(
      'on_my_way_at', ${iso("max(vs.at) FILTER (WHERE vs.step = 'on_my_way')")},
      'arrived_at', ${iso("max(vs.at) FILTER (WHERE vs.step = 'arrived')")},
      'done_at', ${iso("max(vs.at) FILTER (WHERE vs.step = 'done')")},
      'could_not_attend_at', ${iso("max(vs.at) FILTER (WHERE vs.step = 'could_not_attend')")},
      'arrived_distance_m', max(vs.distance_m) FILTER (WHERE vs.step = 'arrived'),
      'arrived_far_from_client', coalesce(bool_or(vs.far_from_client) FILTER (WHERE vs.step = 'arrived'), false),
      'reason', max(vs.reason), 'reason_text', max(vs.reason_text), 'note', max(vs.note))
    FROM visit_steps vs
    WHERE vs.appointment_id = ${table}.id AND vs.business_account_id = ${table}.business_account_id
      AND vs.id > coalesce((SELECT max(r.id) FROM visit_steps r WHERE r.appointment_id = ${table}.id AND r.step = 'reopened'), 0)) END`;

/** The full Appointment of the row aliased `a` (joined with p, t and l). */
const APPOINTMENT_JSON = `json_build_object(
  'id', a.id,
  'starts_at', ${iso('a.starts_at')},
  'ends_at', ${iso('a.ends_at')},
  'arrive_at', ${iso('a.arrive_at')},
  'agreed_starts_at', ${iso('a.agreed_starts_at')},
  'route_id', a.route_id,
  'arrival_locked', a.arrival_locked,
  'tolerance_minutes', coalesce(t.tolerance_minutes, (SELECT os.tolerance_minutes FROM optimization_settings os
    WHERE os.business_account_id = a.business_account_id), ${DEFAULT_OPTIMIZATION_SETTINGS.tolerance_minutes}),
  'notes', a.notes,
  'lat', a.lat,
  'lng', a.lng,
  'geo_precision', ${visitPrecision('a')},
  'geo_source', CASE WHEN a.lat IS NULL OR a.lng IS NULL THEN NULL ELSE (SELECT c.geo_source FROM clients c WHERE c.id = a.client_id AND c.geo_precision <> 'none') END,
  'cancelled_at', ${iso('a.cancelled_at')},
  'status', CASE WHEN a.cancelled_at IS NULL THEN 'BOOKED' ELSE 'CANCELLED' END,
  'suburb', a.city,
  'location', json_build_object(
    'address_1', a.address_1, 'address_2', a.address_2, 'city', a.city, 'state', a.state, 'post_code', a.post_code,
    'country', a.country, 'primary_region', a.state, 'secondary_region', a.city),
  'client', (SELECT json_build_object('id', c.id, 'full_name', ${fullName('c')}, 'time_zone', c.time_zone,
               'availability', coalesce(${pastAvailability('a')}, c.availability))
             FROM clients c WHERE c.id = a.client_id),
  'practitioner', json_build_object(
    'id', p.id, 'full_name', ${fullName('p')}, 'first_name', p.first_name, 'last_name', p.last_name, 'active', p.active,
    'profession', p.profession, 'time_zone', p.time_zone, 'color', practitioner_color(p.id), 'color_chosen', p.color IS NOT NULL),
  'appointment_type', CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object('id', t.id, 'name', t.name, 'duration', t.duration, 'color', t.color) END,
  'business_location', CASE WHEN l.id IS NULL THEN NULL ELSE json_build_object(
    'id', l.id, 'name', l.name, 'address_1', l.address_1, 'city', l.city, 'state', l.state, 'post_code', l.post_code, 'lat', l.lat, 'lng', l.lng,
    'geo_precision', l.geo_precision, 'geo_source', l.geo_source) END,
  'partner', ${partnerJson('a')},
  'visit_state', a.visit_state,
  'visit', ${visitProgress('a')},
  'pms_write', ${latestPmsWrite('a')}
)`;

const nonEmpty = (ids: number[]) => (ids.length ? ids : [0]);

function scopeCondition(scope: AppointmentScope): SQL {
  return and(
    eq(appointments.business_account_id, scope.businessAccountId),
    scope.practitionerIds ? inArray(appointments.practitioner_id, nonEmpty(scope.practitionerIds)) : undefined,
  )!;
}

/** Midnight starting a yyyy-MM-dd day (plus `daysLater`) in the business's time zone, as an instant. */
function businessMidnight(businessAccountId: number, day: string, daysLater: 0 | 1 = 0): SQL {
  return sql`((${day}::date + ${sql.raw(String(daysLater))})::timestamp AT TIME ZONE (SELECT time_zone FROM business_accounts WHERE id = ${businessAccountId}))`;
}

/** Scope and range as SQL over the table aliased `a` (an interpolated array renders as a parenthesised list). */
function rangeCondition(scope: AppointmentScope, filter: AppointmentRangeFilter): SQL {
  const anyOf = (column: string, values: number[] | undefined) => (values?.length ? sql`AND ${sql.raw(column)} IN ${values}` : sql``);
  return sql`a.business_account_id = ${scope.businessAccountId}
    ${scope.practitionerIds ? anyOf('a.practitioner_id', nonEmpty(scope.practitionerIds)) : sql``}
    AND a.starts_at >= ${businessMidnight(scope.businessAccountId, filter.startDate)}
    AND a.starts_at < ${businessMidnight(scope.businessAccountId, filter.endDate, 1)}
    ${anyOf('a.practitioner_id', filter.practitionerIds)}
    ${anyOf('a.appointment_type_id', filter.appointmentTypeIds)}
    ${anyOf('a.business_location_id', filter.businessLocationIds)}`;
}

const ORDER = 'starts_at, practitioner_id, id';

/**
 * The listAppointments response body as JSON text, for sending on unparsed: the range's appointments (or one page
 * of them) and the clients, practitioners and appointment types they name. Rows become objects through json_agg
 * of a record (compact, and quicker than json_build_object); ISO timestamps in UTC sort as the instants do. Each
 * client is read by its key in a subquery of its own: as a join, the planner may read all the business's clients
 * to find a page's few hundred.
 */
// Practitioners' colours come from practitioner_color() (migration 0042), as in the practitioners module's list (practitioners/repository.ts).
export async function listAppointmentsBodyJson(
  db: DbOrTx, scope: AppointmentScope, filter: AppointmentRangeFilter, page?: AppointmentPage,
): Promise<string> {
  const business = scope.businessAccountId;
  const slice = page ? sql`LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}` : sql``;
  const [row] = await queryRows<{ json: string }>(db, sql`
    WITH matching AS (
      SELECT a.id, a.business_account_id, a.starts_at, a.ends_at, a.arrive_at, a.route_id, a.cancelled_at, a.city, a.lat, a.lng,
             a.client_id, a.practitioner_id, a.appointment_type_id, a.business_location_id, a.visit_state
      FROM appointments a
      WHERE ${rangeCondition(scope, filter)}
    ), shown AS (
      SELECT * FROM matching ORDER BY ${sql.raw(ORDER)} ${slice}
    )
    SELECT json_build_object(
      'appointments', coalesce((SELECT json_agg(item ORDER BY ${sql.raw(ORDER)}) FROM (
        SELECT s.id, ${sql.raw(iso('s.starts_at'))} AS starts_at, ${sql.raw(iso('s.ends_at'))} AS ends_at,
               ${sql.raw(iso('s.arrive_at'))} AS arrive_at, s.route_id,
               CASE WHEN s.cancelled_at IS NULL THEN 'BOOKED' ELSE 'CANCELLED' END AS status, s.city AS suburb, s.lat, s.lng, ${sql.raw(visitPrecision('s'))} AS geo_precision,
               s.client_id, s.practitioner_id, s.appointment_type_id, s.business_location_id,
               ${sql.raw(pastAvailability('s'))} AS client_availability, ${sql.raw(partnerJson('s'))} AS partner,
               s.visit_state, ${sql.raw(visitProgress('s'))} AS visit, (SELECT CASE WHEN w.state IN ('saving', 'failed', 'conflict') THEN w.state END
                FROM pms_writes w WHERE w.appointment_id = s.id ORDER BY w.id DESC LIMIT 1) AS pms_write_state
        FROM shown s) item), '[]'),
      'clients', coalesce((SELECT json_agg(client ORDER BY id) FROM (
        SELECT named.client_id AS id, (
          SELECT row_to_json(found) FROM (
            SELECT c.id, ${sql.raw(fullName('c'))} AS full_name, c.time_zone, c.availability
            FROM clients c WHERE c.id = named.client_id AND c.business_account_id = ${business}) found) AS client
        FROM (SELECT DISTINCT client_id FROM shown WHERE client_id IS NOT NULL) named
        OFFSET 0) clients
        WHERE client IS NOT NULL), '[]'),
      'practitioners', coalesce((SELECT json_agg(practitioner ORDER BY practitioner.id) FROM (
        SELECT p.id, ${sql.raw(fullName('p'))} AS full_name, p.time_zone, practitioner_color(p.id) AS color
        FROM practitioners p WHERE p.id IN (SELECT practitioner_id FROM shown) AND p.business_account_id = ${business}) practitioner), '[]'),
      'appointment_types', coalesce((SELECT json_agg(type ORDER BY type.id) FROM (
        SELECT t.id, t.name, t.duration, t.color
        FROM appointment_types t WHERE t.id IN (SELECT appointment_type_id FROM shown) AND t.business_account_id = ${business}) type), '[]'),
      'meta', (SELECT json_build_object('total', count(*), 'page', ${page?.page ?? 1}::int, 'per_page', ${page ? sql`${page.perPage}::int` : sql`count(*)`}) FROM matching)
    )::text AS json`);
  return row.json;
}

export async function findAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number): Promise<Schemas['Appointment'] | undefined> {
  const [row] = await queryRows<{ appointment: Schemas['Appointment'] }>(db, sql`
    SELECT ${sql.raw(APPOINTMENT_JSON)} AS appointment
    FROM appointments a
    JOIN practitioners p ON p.id = a.practitioner_id
    LEFT JOIN appointment_types t ON t.id = a.appointment_type_id
    LEFT JOIN business_locations l ON l.id = a.business_location_id
    WHERE a.business_account_id = ${scope.businessAccountId} AND a.id = ${appointmentId}
      ${scope.practitionerIds ? sql`AND a.practitioner_id IN ${nonEmpty(scope.practitionerIds)}` : sql``}`);
  return row?.appointment;
}

/** Locks the appointment row for an update; undefined when it is not visible in the scope. */
export async function lockAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number) {
  const [row] = await db.select().from(appointments).where(and(scopeCondition(scope), eq(appointments.id, appointmentId))).for('update');
  return row;
}

export interface OpenVisitRow {
  id: number;
  starts_at: Date;
  ends_at: Date;
  arrive_at: Date | null;
  visit_state: string;
  practitioner_id: number;
  practitioner_name: string;
  client_name: string | null;
  /** Since the visit was last reopened. */
  on_my_way_at: Date | null;
  arrived_at: Date | null;
}

/**
 * The business's visits planned to start (arrival, else booked start) in [from, before) that are not cancelled and
 * not over (not started, on the way or arrived): the ones the desk's rule (server/src/lib/overdue.ts) is asked about.
 */
export async function openVisitsPlannedBetween(db: DbOrTx, businessAccountId: number, from: Date, before: Date): Promise<OpenVisitRow[]> {
  type Row = Omit<OpenVisitRow, 'starts_at' | 'ends_at' | 'arrive_at' | 'on_my_way_at' | 'arrived_at'>
    & Record<'starts_at' | 'ends_at', Date | string> & Record<'arrive_at' | 'on_my_way_at' | 'arrived_at', Date | string | null>;
  const rows = await queryRows<Row>(db, sql`
    SELECT a.id, a.starts_at, a.ends_at, a.arrive_at, a.visit_state, a.practitioner_id,
           (SELECT ${sql.raw(fullName('p'))} FROM practitioners p WHERE p.id = a.practitioner_id) AS practitioner_name,
           (SELECT ${sql.raw(fullName('c'))} FROM clients c WHERE c.id = a.client_id) AS client_name,
           steps.on_my_way_at, steps.arrived_at
    FROM appointments a
    LEFT JOIN LATERAL (
      SELECT max(vs.at) FILTER (WHERE vs.step = 'on_my_way') AS on_my_way_at, max(vs.at) FILTER (WHERE vs.step = 'arrived') AS arrived_at
      FROM visit_steps vs
      WHERE a.visit_state <> 'not_started' AND vs.appointment_id = a.id AND vs.business_account_id = a.business_account_id
        AND vs.id > coalesce((SELECT max(r.id) FROM visit_steps r WHERE r.appointment_id = a.id AND r.step = 'reopened'), 0)
    ) steps ON true
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL AND a.visit_state IN ('not_started', 'on_my_way', 'arrived')
      AND coalesce(a.arrive_at, a.starts_at) >= ${from.toISOString()}::timestamptz
      AND coalesce(a.arrive_at, a.starts_at) < ${before.toISOString()}::timestamptz
    ORDER BY coalesce(a.arrive_at, a.starts_at), a.id`);
  const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));
  return rows.map((row) => ({
    ...row, starts_at: new Date(row.starts_at), ends_at: new Date(row.ends_at), arrive_at: dateOrNull(row.arrive_at),
    on_my_way_at: dateOrNull(row.on_my_way_at), arrived_at: dateOrNull(row.arrived_at),
  }));
}

/** The business's overdue_after_minutes setting (migration 0088). */
export async function overdueAfterMinutesOf(db: DbOrTx, businessAccountId: number): Promise<number> {
  const [row] = await queryRows<{ minutes: number }>(db, sql`SELECT overdue_after_minutes AS minutes FROM business_accounts WHERE id = ${businessAccountId}`);
  return row?.minutes ?? 15;
}
