// Visits of today for the demo's practitioner: the demo books weekdays only, so visits the practitioner has booked in
// the coming days are moved in the Cliniko sandbox to today (Brisbane, the demo business's zone) and imported.
import { Temporal } from 'temporal-polyfill';
import { apiAs } from './api';
import { idOfLink, sandboxGet, sandboxPatch, type SandboxAppointment, type SandboxPractitioner } from './sandbox';
import type { RunningProduct } from './server';

export const ZONE = 'Australia/Brisbane';
export const PRACTITIONER = 'practitioner@demo.test';

export interface SandboxPatient {
  id: string; first_name: string; preferred_first_name: string | null; email: string | null; latitude: number | null; longitude: number | null; archived_at: string | null;
  patient_phone_numbers: { number: string; phone_type: string }[];
}
type ComingAppointment = SandboxAppointment & { patient: { links: { self: string } }; cancelled_at: string | null; archived_at: string | null };
export interface Visit { id: number; client: string; patient: SandboxPatient; starts: Temporal.ZonedDateTime }
export interface Day { business: string; practitionerFirstName: string; visits: Visit[] }
/**
 * Moves visits the practitioner has booked in the coming days to today at `starts` (in the sandbox, as if booked so
 * in Cliniko; each with a client of its own, and an email address where `withEmail`), imports, and answers them.
 */
export async function bookToday(product: RunningProduct, sandbox: string, wanted: { starts: Temporal.ZonedDateTime; withEmail?: boolean }[]): Promise<Day> {
  const admin = await apiAs(product.url, 'admin@demo.test');
  const [{ user }, { practitioners }, { business_account: business }] = await Promise.all([
    apiAs(product.url, PRACTITIONER).then((api) => api<{ user: { associated_practitioner_ids: number[] } }>('/auth/user')),
    admin<{ practitioners: { id: number; full_name: string }[] }>('/practitioners/all'),
    admin<{ business_account: { name: string } }>('/business_account'),
  ]);
  const practitionerId = user.associated_practitioner_ids[0];
  const name = practitioners.find((practitioner) => practitioner.id === practitionerId)!.full_name;
  const inSandbox = (await sandboxGet<{ practitioners: SandboxPractitioner[] }>(sandbox, '/practitioners?per_page=100')).practitioners
    .find((practitioner) => `${practitioner.first_name} ${practitioner.last_name}` === name)!;
  const tomorrow = Temporal.Now.zonedDateTimeISO(ZONE).startOfDay().add({ days: 1 });
  const { individual_appointments: coming } = await sandboxGet<{ individual_appointments: ComingAppointment[] }>(
    sandbox, `/individual_appointments?per_page=40&q[]=practitioner_id:=${inSandbox.id}&q[]=starts_at:>=${tomorrow.toInstant().toString()}`,
  );
  const chosen: { appointment: ComingAppointment; patient: SandboxPatient; starts: Temporal.ZonedDateTime }[] = [];
  for (const want of wanted) {
    for (const appointment of coming) {
      const patientLink = appointment.patient.links.self;
      if (appointment.cancelled_at || appointment.archived_at || chosen.some((taken) => taken.patient.id === idOfLink(patientLink))) continue;
      const patient = await sandboxGet<SandboxPatient>(sandbox, `/patients/${idOfLink(patientLink)}`);
      if (patient.archived_at || (want.withEmail && (!patient.email || patient.latitude === null))) continue;
      chosen.push({ appointment, patient, starts: want.starts });
      break;
    }
  }
  if (chosen.length < wanted.length) throw new Error(`${name} has too few visits booked in the coming days to move to today`);
  let lastDay = Temporal.Now.plainDateISO(ZONE);
  for (const { appointment, starts } of chosen) {
    const length = Temporal.Instant.from(appointment.ends_at).since(Temporal.Instant.from(appointment.starts_at));
    await sandboxPatch(sandbox, `/individual_appointments/${idOfLink(appointment.id)}`, {
      starts_at: starts.toInstant().toString(), ends_at: starts.toInstant().add(length).toString(),
    });
    const originalDay = Temporal.Instant.from(appointment.starts_at).toZonedDateTimeISO(ZONE).toPlainDate();
    if (Temporal.PlainDate.compare(originalDay, lastDay) > 0) lastDay = originalDay;
  }
  const today = Temporal.Now.plainDateISO(ZONE).toString();
  const { import: job } = await admin<{ import: { id: number } }>('/imports', { method: 'POST', body: JSON.stringify({ start_date: today, end_date: lastDay.toString() }) });
  for (const deadline = Date.now() + 60_000; ;) {
    const { import: state } = await admin<{ import: { status: string; error_message: string | null } }>(`/imports/${job.id}`);
    if (state.status === 'COMPLETE') break;
    if (state.status === 'ERROR' || Date.now() > deadline) throw new Error(`the import of today did not complete: ${state.status} ${state.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { appointments } = await admin<{ appointments: { id: number; practitioner_id: number; starts_at: string }[] }>(`/appointments?start_date=${today}&end_date=${today}`);
  const visits = await Promise.all(chosen.map(async ({ patient, starts }) => {
    const listed = appointments.find((item) => item.practitioner_id === practitionerId && Date.parse(item.starts_at) === starts.epochMilliseconds)!;
    const { appointment } = await admin<{ appointment: { client: { full_name: string } | null } }>(`/appointments/${listed.id}`);
    return { id: listed.id, client: appointment.client!.full_name, patient, starts };
  }));
  return { business: business.name, practitionerFirstName: inSandbox.first_name, visits };
}

