// A visit's steps as the phone sends them (POST /appointments/{id}/steps): the visit machine's default effect, and the
// run sheet's mutation.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components, operations } from './schema';

type Schemas = components['schemas'];
export type VisitState = Schemas['VisitState'];
export type VisitStepKind = Schemas['VisitStepKind'];
export type NotAttendedReason = Schemas['NotAttendedReason'];
export type VisitStep = Schemas['VisitStep'];
export type VisitProgress = Schemas['VisitProgress'];
export type VisitStepRequest = operations['recordVisitStep']['requestBody']['content']['application/json'];
export interface RecordedVisitStep { step: VisitStep; appointment: Schemas['Appointment'] }

export const VISIT_STEP_ERROR_MESSAGE = 'An error has occurred. The step was not recorded.';

export async function recordVisitStep(api: ApiClient, appointmentId: number, body: VisitStepRequest, signal?: AbortSignal): Promise<RecordedVisitStep> {
  const result = await api.POST('/appointments/{id}/steps', { params: { path: { id: appointmentId } }, body, signal });
  return unwrap(result, VISIT_STEP_ERROR_MESSAGE);
}

/** Not the server's answer (which says why in words): the phone could not reach it. The words typed stay in the form. */
export const VISIT_NOTE_ERROR_MESSAGE = 'The note was not saved: no signal, or the server could not be reached. Your words are kept here: save again when you have signal.';

/** A done visit's note, written after Done (PUT /appointments/{id}/visit_note): the appointment as it now is. */
export async function saveVisitNote(api: ApiClient, appointmentId: number, note: string): Promise<Schemas['Appointment']> {
  const result = await api.PUT('/appointments/{id}/visit_note', { params: { path: { id: appointmentId } }, body: { note } });
  return unwrap(result, VISIT_NOTE_ERROR_MESSAGE).appointment;
}
