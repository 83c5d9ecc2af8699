// Which detail modals are open, as a stack: the appointment modal can open the client modal on top of it,
// and closing that returns to the appointment. Any view may open one without a React provider.
import { createExternalStore } from '../lib/externalStore';
import type { Appointment } from '../api/types';

export type ModalEntry =
  | { kind: 'client'; clientId: number }
  | { kind: 'appointment'; appointmentId: number; appointment?: Appointment };

/** A window event any code may dispatch to open the appointment details modal; `detail` is `{ id }` or an appointment object. */
export const OPEN_APPOINTMENT_EVENT = 'open-modal-show-appointment';

const store = createExternalStore<readonly ModalEntry[]>([]);
const setStack = store.set;

export function openClientModal(clientId: number): void {
  setStack([...store.get(), { kind: 'client', clientId }]);
}

export function openAppointmentModal(appointmentOrId: number | Appointment): void {
  const entry: ModalEntry =
    typeof appointmentOrId === 'number'
      ? { kind: 'appointment', appointmentId: appointmentOrId }
      : { kind: 'appointment', appointmentId: appointmentOrId.id, appointment: appointmentOrId };
  setStack([...store.get(), entry]);
}

export function closeTopModal(): void {
  setStack(store.get().slice(0, -1));
}

export function closeAllModals(): void {
  setStack([]);
}

export function useModalStack(): readonly ModalEntry[] {
  return store.use();
}

const isPositiveId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** `{ id }` or an appointment object (it has starts_at); anything else is ignored. */
export function appointmentFromEventDetail(detail: unknown): number | Appointment | null {
  if (typeof detail !== 'object' || detail === null) return isPositiveId(detail) ? detail : null;
  const candidate = detail as Partial<Appointment>;
  if (!isPositiveId(candidate.id)) return null;
  return typeof candidate.starts_at === 'string' && typeof candidate.practitioner === 'object' ? (candidate as Appointment) : candidate.id;
}
