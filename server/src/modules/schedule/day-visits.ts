// The day's visits as the schedule reads them (every part that plans, checks or measures a day), and the business's
// clock. Every query is scoped to the business passed first.
import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appointments, clients, practitioners, type AvailabilityEntry } from '../../db/schema';
import { leaveOverlapping } from '../leave';
import { effectiveQualifications } from '../practitioners';
import type { DayBounds, DayVisit } from './day-model';


/** The visit's client's preferred or excluded practitioners (migration 0081), ascending. */
function practitionerIdsOf(kind: 'preferred' | 'excluded') {
  return sql<number[]>`coalesce((SELECT array_agg(pp.practitioner_id ORDER BY pp.practitioner_id) FROM client_practitioner_preferences pp
    WHERE pp.client_id = ${appointments.client_id} AND pp.business_account_id = ${appointments.business_account_id} AND pp.kind = ${kind}), '{}')`;
}

const visitColumns = {
  id: appointments.id,
  practitionerId: appointments.practitioner_id,
  practitionerName: sql<string>`(SELECT btrim(p.first_name || ' ' || p.last_name) FROM practitioners p WHERE p.id = ${appointments.practitioner_id})`,
  clientId: appointments.client_id,
  clientName: sql<string | null>`btrim(${clients.first_name} || ' ' || ${clients.last_name})`,
  clientTimeZone: clients.time_zone,
  // The availability in force on the visit's day (client_past_availabilities, migration 0073).
  availability: sql<AvailabilityEntry[] | null>`coalesce((SELECT pa.availability FROM client_past_availabilities pa
    WHERE pa.client_id = ${appointments.client_id} AND pa.valid_until > ${appointments.starts_at} ORDER BY pa.valid_until LIMIT 1), ${clients.availability})`,
  appointmentTypeId: appointments.appointment_type_id,
  startsAt: appointments.starts_at,
  endsAt: appointments.ends_at,
  arriveAt: appointments.arrive_at,
  agreedStartsAt: appointments.agreed_starts_at,
  arrivalLocked: appointments.arrival_locked,
  visitState: appointments.visit_state,
  // The appointment's own point when it has one, else the client's (never one coordinate of each).
  lat: sql<number | null>`CASE WHEN ${appointments.lat} IS NOT NULL AND ${appointments.lng} IS NOT NULL THEN ${appointments.lat} ELSE ${clients.lat} END`,
  lng: sql<number | null>`CASE WHEN ${appointments.lat} IS NOT NULL AND ${appointments.lng} IS NOT NULL THEN ${appointments.lng} ELSE ${clients.lng} END`,
  updatedAt: appointments.updated_at,
  preferredPractitionerIds: practitionerIdsOf('preferred'),
  excludedPractitionerIds: practitionerIdsOf('excluded'),
};

/**
 * The practitioners' visits of the day that are not cancelled (every practitioner's when `practitionerIds` is null),
 * by start. With `lock`, the rows are locked for the rest of the transaction (apply checks and writes them).
 */
export async function dayVisits(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[] | null, day: DayBounds, lock = false,
): Promise<DayVisit[]> {
  if (practitionerIds?.length === 0) return [];
  const query = db.select(visitColumns).from(appointments)
    .leftJoin(clients, and(eq(clients.id, appointments.client_id), eq(clients.business_account_id, businessAccountId)))
    .where(and(
      eq(appointments.business_account_id, businessAccountId),
      practitionerIds ? inArray(appointments.practitioner_id, [...practitionerIds]) : undefined,
      isNull(appointments.cancelled_at), gte(appointments.starts_at, day.from), lt(appointments.starts_at, day.to),
    ))
    .orderBy(asc(appointments.starts_at), asc(appointments.id));
  const rows = lock ? await query.for('update', { of: appointments }) : await query;
  return rows.map((row) => ({
    ...row,
    lat: row.lat === null ? null : Number(row.lat),
    lng: row.lng === null ? null : Number(row.lng),
    availability: row.availability ?? [],
  }));
}

/** One visit of the business as the optimiser reads it, with when it was cancelled; undefined when there is none. */
export async function findVisit(db: DbOrTx, businessAccountId: number, id: number): Promise<(DayVisit & { cancelledAt: Date | null }) | undefined> {
  const [row] = await db.select({ ...visitColumns, cancelledAt: appointments.cancelled_at }).from(appointments)
    .leftJoin(clients, and(eq(clients.id, appointments.client_id), eq(clients.business_account_id, businessAccountId)))
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, id)));
  if (!row) return undefined;
  return { ...row, lat: row.lat === null ? null : Number(row.lat), lng: row.lng === null ? null : Number(row.lng), availability: row.availability ?? [] };
}

/** A practitioner as the rules read them on a day: their leave overlapping it, and the types they deliver (null: unknown). */
export interface StaffOfDay {
  leave: { startsAt: Date; endsAt: Date }[];
  skills: number[] | null;
}

/** Every practitioner of the business with their leave overlapping the day and their skills. */
export async function dayStaff(db: DbOrTx, businessAccountId: number, day: DayBounds): Promise<Map<number, StaffOfDay>> {
  const [rows, leave] = await Promise.all([
    db.select({ id: practitioners.id, skill_appointment_type_ids: practitioners.skill_appointment_type_ids, pms_appointment_type_ids: practitioners.pms_appointment_type_ids })
      .from(practitioners)
      .where(eq(practitioners.business_account_id, businessAccountId)),
    leaveOverlapping(db, businessAccountId, null, day.from, day.to),
  ]);
  const staff = new Map(rows.map((row): [number, StaffOfDay] => [row.id, { leave: [], skills: effectiveQualifications(row) }]));
  for (const away of leave) staff.get(away.practitioner_id)?.leave.push({ startsAt: away.starts_at, endsAt: away.ends_at });
  return staff;
}
