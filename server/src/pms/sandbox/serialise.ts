import type {
  ClinikoAppointmentType,
  ClinikoBusiness,
  ClinikoIndividualAppointment,
  ClinikoPatient,
  ClinikoPractitioner,
  ClinikoUnavailableBlock,
  ClinikoUser,
} from '../cliniko/normalise';
import type {
  SandboxAppointment,
  SandboxAppointmentType,
  SandboxBusiness,
  SandboxPatient,
  SandboxPractitioner,
  SandboxUnavailableBlock,
  SandboxUser,
} from './dataset';

/**
 * Cliniko-shaped JSON for the sandbox's records, typed by the generated Cliniko schema. Related records
 * are link objects (`{ links: { self: url } }`) built on `api`, the API root the client called
 * (e.g. "http://127.0.0.1:8100/v1"). Patients and businesses also carry the sandbox-only
 * `latitude`/`longitude` extras.
 */
const link = (url: string) => ({ links: { self: url } });

export function serialiseUser(api: string, user: SandboxUser): ClinikoUser {
  return { ...user, active: true, user_active: true, links: { self: `${api}/users/${user.id}` } };
}

export function serialiseBusiness(api: string, business: SandboxBusiness): ClinikoBusiness {
  return {
    ...business,
    display_name: business.business_name,
    label: business.business_name,
    deleted_at: null,
    show_in_online_bookings: false,
    appointment_type_ids: null,
    links: { self: `${api}/businesses/${business.id}` },
    appointments: link(`${api}/businesses/${business.id}/appointments`),
    practitioners: link(`${api}/businesses/${business.id}/practitioners`),
  };
}

export function serialisePractitioner(api: string, practitioner: SandboxPractitioner): ClinikoPractitioner {
  const { business_id: _business, appointment_type_ids: _types, ...fields } = practitioner;
  const name = [practitioner.title, practitioner.first_name, practitioner.last_name].filter(Boolean).join(' ');
  return {
    ...fields,
    title: practitioner.title ?? undefined,
    display_name: name,
    label: name,
    show_in_online_bookings: false,
    links: { self: `${api}/practitioners/${practitioner.id}` },
    appointment_types: link(`${api}/practitioners/${practitioner.id}/appointment_types`),
    appointments: link(`${api}/practitioners/${practitioner.id}/appointments`),
  };
}

export function serialiseAppointmentType(api: string, type: SandboxAppointmentType): ClinikoAppointmentType {
  return {
    ...type,
    max_attendees: 1,
    show_in_online_bookings: false,
    telehealth_enabled: false,
    links: { self: `${api}/appointment_types/${type.id}` },
    practitioners: link(`${api}/appointment_types/${type.id}/practitioners`),
  };
}

export function serialisePatient(api: string, patient: SandboxPatient): ClinikoPatient {
  const { business_id: _business, patient_phone_numbers, ...fields } = patient;
  return {
    ...fields,
    title: patient.title ?? undefined,
    patient_phone_numbers: patient_phone_numbers.map((p) => ({
      number: p.number,
      phone_type: p.phone_type,
      normalized_number: `+61${p.number.replace(/\D/g, '').replace(/^0/, '')}`,
    })),
    links: { self: `${api}/patients/${patient.id}` },
    appointments: link(`${api}/patients/${patient.id}/appointments`),
  };
}

export function serialiseAppointment(api: string, appointment: SandboxAppointment): ClinikoIndividualAppointment {
  const { patient_id, practitioner_id, appointment_type_id, business_id, cancellation_reason_description, ...fields } =
    appointment;
  return {
    ...fields,
    cancellation_reason_description: cancellation_reason_description as ClinikoIndividualAppointment['cancellation_reason_description'],
    patient_arrived: false,
    links: { self: `${api}/individual_appointments/${appointment.id}` },
    patient: link(`${api}/patients/${patient_id}`),
    practitioner: link(`${api}/practitioners/${practitioner_id}`),
    appointment_type: link(`${api}/appointment_types/${appointment_type_id}`),
    business: link(`${api}/businesses/${business_id}`),
    attendees: link(`${api}/individual_appointments/${appointment.id}/attendees`),
    conflicts: link(`${api}/individual_appointments/${appointment.id}/conflicts`),
  };
}

export function serialiseUnavailableBlock(api: string, block: SandboxUnavailableBlock): ClinikoUnavailableBlock {
  const { practitioner_id, business_id, ...fields } = block;
  return {
    ...fields,
    links: { self: `${api}/unavailable_blocks/${block.id}` },
    practitioner: link(`${api}/practitioners/${practitioner_id}`),
    business: link(`${api}/businesses/${business_id}`),
    conflicts: link(`${api}/unavailable_blocks/${block.id}/conflicts`),
    repeat_rule: null,
    repeats: null,
  };
}
