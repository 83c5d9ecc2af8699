// The calls of the appointments area and the appointment details modal.
import type { ApiClient } from '../../api/client';
import type { components, operations } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
import type { Appointment } from '../../api/types';

export type { Appointment };
export type AppointmentExtraDetails = Schemas['AppointmentExtraDetails'];
export type Practitioner = Schemas['Practitioner'];
export type AppointmentType = Schemas['AppointmentType'];
export type BusinessLocation = Schemas['BusinessLocation'];
/** The other half of a double-handed (two-carer) visit. */
export type VisitPartner = NonNullable<Schemas['VisitPartner']>;
export type AppointmentListQuery = operations['listAppointments']['parameters']['query'];
type AppointmentListBody = operations['listAppointments']['responses'][200]['content']['application/json'];

/** A listed appointment with its client, practitioner and type looked up: what the table, the schedule and the map show. */
export interface AppointmentSummary extends Omit<Schemas['AppointmentListItem'], 'client_id' | 'practitioner_id' | 'appointment_type_id'> {
  client: Schemas['AppointmentClient'] | null;
  practitioner: Schemas['AppointmentPractitioner'];
  appointment_type: AppointmentType | null;
}

export interface AppointmentListPage {
  appointments: AppointmentSummary[];
  meta: Schemas['PageMeta'];
}

export const APPOINTMENT_LOAD_ERROR = 'An error has occurred. Could not load appointment details.';
export const APPOINTMENT_EXTRA_LOAD_ERROR = 'An error has occurred. Could not load appointment extra details.';

export async function listAppointments(api: ApiClient, query: AppointmentListQuery): Promise<AppointmentListPage> {
  const result = await api.GET('/appointments', { params: { query } });
  const body = unwrap(result, 'An error has occurred. Could not load appointments list.');
  return { appointments: summariesOf(body), meta: body.meta };
}

/** Puts each listed appointment together with the client, practitioner and type the response names beside it. */
export function summariesOf(body: Omit<AppointmentListBody, 'meta'>): AppointmentSummary[] {
  const clients = new Map(body.clients.map((client) => [client.id, client]));
  const practitioners = new Map(body.practitioners.map((practitioner) => [practitioner.id, practitioner]));
  const types = new Map(body.appointment_types.map((type) => [type.id, type]));
  return body.appointments.map(({ client_id, practitioner_id, appointment_type_id, client_availability, ...appointment }) => {
    const client = (client_id !== null && clients.get(client_id)) || null;
    return {
      ...appointment,
      // A visit is judged by the availability its client had on its day.
      client: client && client_availability ? { ...client, availability: client_availability } : client,
      practitioner: practitioners.get(practitioner_id) ?? { id: practitioner_id, full_name: 'Unknown practitioner', time_zone: '' },
      appointment_type: (appointment_type_id !== null && types.get(appointment_type_id)) || null,
    };
  });
}

export async function fetchAppointment(api: ApiClient, id: number): Promise<Appointment> {
  const result = await api.GET('/appointments/{id}', { params: { path: { id } } });
  return unwrap(result, APPOINTMENT_LOAD_ERROR).appointment;
}

export async function fetchAppointmentExtraDetails(api: ApiClient, id: number): Promise<AppointmentExtraDetails> {
  const result = await api.GET('/appointments/{id}/extra_details', { params: { path: { id } } });
  return unwrap(result, APPOINTMENT_EXTRA_LOAD_ERROR);
}

export async function fetchAllPractitioners(api: ApiClient): Promise<Practitioner[]> {
  const result = await api.GET('/practitioners/all');
  return unwrap(result, 'An error has occurred. Could not load practitioners list.').practitioners;
}

export async function fetchAllAppointmentTypes(api: ApiClient): Promise<AppointmentType[]> {
  const result = await api.GET('/appointment_types/all');
  return unwrap(result, 'An error has occurred. Could not load appointment types list.').appointment_types;
}

export async function fetchAllBusinessLocations(api: ApiClient): Promise<BusinessLocation[]> {
  const result = await api.GET('/business_locations/all');
  return unwrap(result, 'An error has occurred. Could not load business location list.').business_locations;
}

/** A single-use ticket to open the live desk's event stream with (GET /live/events), valid 30 s. */
export async function createLiveTicket(api: ApiClient): Promise<string> {
  return unwrap(await api.POST('/live/tickets'), 'Could not open the live desk.').ticket;
}
