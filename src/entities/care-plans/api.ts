// A client's care plans (visits that repeat by weekday inside a time window) and their absences (in hospital, away),
// which pause the plans. The client details modal edits them; an allocation or a filled open visit changes their counts.
import type { ApiClient } from '../../api/client';
import { ensureOk, unwrap } from '../../api/errors';
import type { components } from '../../api/schema';

type Schemas = components['schemas'];
export type CarePlan = Schemas['CarePlan'];
export type CarePlanInput = Schemas['CarePlanInput'];
export type ClientAbsence = Schemas['ClientAbsence'];
export type AbsenceReason = ClientAbsence['reason'];
export interface AbsenceInput {
  starts_on: string;
  ends_on: string;
  reason: AbsenceReason;
  note?: string;
}

export const CARE_PLAN_SAVE_ERROR = 'An error has occurred. Could not save the care plan.';
export const CARE_PLAN_END_ERROR = 'An error has occurred. Could not end the care plan.';
export const ABSENCE_SAVE_ERROR = 'An error has occurred. Could not save the absence.';
export const ABSENCE_DELETE_ERROR = 'An error has occurred. Could not remove the absence.';

export async function fetchCarePlans(api: ApiClient, clientId: number): Promise<CarePlan[]> {
  const result = await api.GET('/clients/{id}/care_plans', { params: { path: { id: clientId } } });
  return unwrap(result, 'An error has occurred. Could not load the care plans.').care_plans;
}

export async function createCarePlan(api: ApiClient, clientId: number, input: CarePlanInput): Promise<CarePlan> {
  const result = await api.POST('/clients/{id}/care_plans', { params: { path: { id: clientId } }, body: input });
  return unwrap(result, CARE_PLAN_SAVE_ERROR).care_plan;
}

export async function updateCarePlan(api: ApiClient, id: number, input: CarePlanInput): Promise<CarePlan> {
  const result = await api.PATCH('/care_plans/{id}', { params: { path: { id } }, body: input });
  return unwrap(result, CARE_PLAN_SAVE_ERROR).care_plan;
}

export async function endCarePlan(api: ApiClient, id: number, endsOn: string) {
  const result = await api.POST('/care_plans/{id}/end', { params: { path: { id } }, body: { ends_on: endsOn } });
  return unwrap(result, CARE_PLAN_END_ERROR);
}

export async function fetchClientAbsences(api: ApiClient, clientId: number): Promise<ClientAbsence[]> {
  const result = await api.GET('/clients/{id}/absences', { params: { path: { id: clientId } } });
  return unwrap(result, 'An error has occurred. Could not load the absences.').absences;
}

export async function createClientAbsence(api: ApiClient, clientId: number, input: AbsenceInput) {
  const result = await api.POST('/clients/{id}/absences', { params: { path: { id: clientId } }, body: input });
  return unwrap(result, ABSENCE_SAVE_ERROR);
}

export async function deleteClientAbsence(api: ApiClient, id: number): Promise<void> {
  ensureOk(await api.DELETE('/client_absences/{id}', { params: { path: { id } } }), ABSENCE_DELETE_ERROR);
}
