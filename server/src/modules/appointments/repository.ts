// Appointment queries: one select (with client, practitioner, type and location) shared by the list and by-id reads.
import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { appointments, appointmentTypes, businessLocations, clients, practitioners } from '../../db/schema';
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

const columns = {
  id: appointments.id,
  starts_at: appointments.starts_at,
  ends_at: appointments.ends_at,
  arrive_at: appointments.arrive_at,
  route_id: appointments.route_id,
  notes: appointments.notes,
  lat: appointments.lat,
  lng: appointments.lng,
  cancelled_at: appointments.cancelled_at,
  address_1: appointments.address_1,
  address_2: appointments.address_2,
  city: appointments.city,
  state: appointments.state,
  post_code: appointments.post_code,
  country: appointments.country,
  practitioner: {
    id: practitioners.id,
    first_name: practitioners.first_name,
    last_name: practitioners.last_name,
    active: practitioners.active,
    profession: practitioners.profession,
    time_zone: practitioners.time_zone,
  },
  client: {
    id: clients.id,
    first_name: clients.first_name,
    last_name: clients.last_name,
    time_zone: clients.time_zone,
    availability: clients.availability,
  },
  appointment_type: {
    id: appointmentTypes.id,
    name: appointmentTypes.name,
    duration: appointmentTypes.duration,
    color: appointmentTypes.color,
  },
  business_location: {
    id: businessLocations.id,
    name: businessLocations.name,
    address_1: businessLocations.address_1,
    city: businessLocations.city,
    state: businessLocations.state,
    post_code: businessLocations.post_code,
    lat: businessLocations.lat,
    lng: businessLocations.lng,
  },
};

function selectAppointments(db: DbOrTx, where: SQL | undefined) {
  return db.select(columns).from(appointments)
    .innerJoin(practitioners, eq(practitioners.id, appointments.practitioner_id))
    .leftJoin(clients, eq(clients.id, appointments.client_id))
    .leftJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointment_type_id))
    .leftJoin(businessLocations, eq(businessLocations.id, appointments.business_location_id))
    .where(where);
}

export type AppointmentDetailRow = Awaited<ReturnType<typeof selectAppointments>>[number];

const nonEmpty = (ids: number[]) => (ids.length ? ids : [0]);

function scopeCondition(scope: AppointmentScope): SQL | undefined {
  return and(
    eq(appointments.business_account_id, scope.businessAccountId),
    scope.practitionerIds ? inArray(appointments.practitioner_id, nonEmpty(scope.practitionerIds)) : undefined,
  );
}

/** Midnight starting a yyyy-MM-dd day (plus `daysLater`) in the business's time zone, as an instant. */
function businessMidnight(businessAccountId: number, day: string, daysLater: 0 | 1 = 0): SQL {
  return sql`((${day}::date + ${sql.raw(String(daysLater))})::timestamp AT TIME ZONE (SELECT time_zone FROM business_accounts WHERE id = ${businessAccountId}))`;
}

export async function listAppointmentRows(db: DbOrTx, scope: AppointmentScope, filter: AppointmentRangeFilter): Promise<AppointmentDetailRow[]> {
  const where = and(
    scopeCondition(scope),
    gte(appointments.starts_at, businessMidnight(scope.businessAccountId, filter.startDate)),
    lt(appointments.starts_at, businessMidnight(scope.businessAccountId, filter.endDate, 1)),
    filter.practitionerIds?.length ? inArray(appointments.practitioner_id, filter.practitionerIds) : undefined,
    filter.appointmentTypeIds?.length ? inArray(appointments.appointment_type_id, filter.appointmentTypeIds) : undefined,
    filter.businessLocationIds?.length ? inArray(appointments.business_location_id, filter.businessLocationIds) : undefined,
  );
  return selectAppointments(db, where).orderBy(asc(appointments.starts_at), asc(appointments.practitioner_id), asc(appointments.id));
}

export async function findAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number): Promise<AppointmentDetailRow | undefined> {
  const [row] = await selectAppointments(db, and(scopeCondition(scope), eq(appointments.id, appointmentId)));
  return row;
}

/** Locks the appointment row for an update; undefined when it is not visible in the scope. */
export async function lockAppointment(db: DbOrTx, scope: AppointmentScope, appointmentId: number) {
  const [row] = await db.select().from(appointments).where(and(scopeCondition(scope), eq(appointments.id, appointmentId))).for('update');
  return row;
}
