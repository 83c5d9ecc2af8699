// Appointment reads. The contract's Appointment is built by PostgreSQL itself (json_build_object) and handed on as
// text: a week of a large business is a thousand or more appointments, and parsing rows, mapping them and
// serialising them again in Node cost several times what the query does. One builder serves the list and the
// by-id read, so both answer the same shape.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { appointments } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { DbOrTx } from '../audit/versions';

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

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const fullName = (table: string) => `btrim(${table}.first_name || ' ' || ${table}.last_name)`;

// The client comes from a per-row lookup by primary key: joined, the planner hashes the whole clients table to
// serve a few hundred appointments.
const APPOINTMENT_JSON = `json_build_object(
  'id', a.id,
  'starts_at', ${iso('a.starts_at')},
  'ends_at', ${iso('a.ends_at')},
  'arrive_at', ${iso('a.arrive_at')},
  'route_id', a.route_id,
  'notes', a.notes,
  'lat', a.lat,
  'lng', a.lng,
  'cancelled_at', ${iso('a.cancelled_at')},
  'status', CASE WHEN a.cancelled_at IS NULL THEN 'BOOKED' ELSE 'CANCELLED' END,
  'suburb', a.city,
  'location', json_build_object(
    'address_1', a.address_1, 'address_2', a.address_2, 'city', a.city, 'state', a.state, 'post_code', a.post_code,
    'country', a.country, 'primary_region', a.state, 'secondary_region', a.city),
  'client', (SELECT json_build_object('id', c.id, 'full_name', ${fullName('c')}, 'time_zone', c.time_zone, 'availability', c.availability)
             FROM clients c WHERE c.id = a.client_id),
  'practitioner', json_build_object(
    'id', p.id, 'full_name', ${fullName('p')}, 'first_name', p.first_name, 'last_name', p.last_name, 'active', p.active,
    'profession', p.profession, 'time_zone', p.time_zone),
  'appointment_type', CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object('id', t.id, 'name', t.name, 'duration', t.duration, 'color', t.color) END,
  'business_location', CASE WHEN l.id IS NULL THEN NULL ELSE json_build_object(
    'id', l.id, 'name', l.name, 'address_1', l.address_1, 'city', l.city, 'state', l.state, 'post_code', l.post_code, 'lat', l.lat, 'lng', l.lng) END
)`;

/** A JSON array (as text) of the matching appointments, ordered by start, practitioner and id. */
async function appointmentsJson(db: DbOrTx, where: SQL): Promise<string> {
  const [row] = await queryRows<{ json: string }>(db, sql`
    SELECT coalesce(json_agg(doc ORDER BY starts_at, practitioner_id, id), '[]')::text AS json
    FROM (
      SELECT a.starts_at, a.practitioner_id, a.id, ${sql.raw(APPOINTMENT_JSON)} AS doc
      FROM appointments a
      JOIN practitioners p ON p.id = a.practitioner_id
      LEFT JOIN appointment_types t ON t.id = a.appointment_type_id
      LEFT JOIN business_locations l ON l.id = a.business_location_id
      WHERE ${where}
    ) matching`);
  return row.json;
}

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

/** The appointments of the range as a JSON array (text), for sending on unparsed. */
export function listAppointmentsJson(db: DbOrTx, scope: AppointmentScope, filter: AppointmentRangeFilter): Promise<string> {
  return appointmentsJson(db, rangeCondition(scope, filter));
}

export async function findAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number): Promise<Schemas['Appointment'] | undefined> {
  const where = sql`a.business_account_id = ${scope.businessAccountId} AND a.id = ${appointmentId}
    ${scope.practitionerIds ? sql`AND a.practitioner_id IN ${nonEmpty(scope.practitionerIds)}` : sql``}`;
  const [appointment] = JSON.parse(await appointmentsJson(db, where)) as Schemas['Appointment'][];
  return appointment;
}

/** Locks the appointment row for an update; undefined when it is not visible in the scope. */
export async function lockAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number) {
  const [row] = await db.select().from(appointments).where(and(scopeCondition(scope), eq(appointments.id, appointmentId))).for('update');
  return row;
}
