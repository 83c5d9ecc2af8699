// The open visits page's calls: the best fits for an open visit, filling or removing it, and a care-plan allocation
// (started, followed, applied). Failures are thrown as ApiError with the server's words, else the sentences below.
import type { ApiClient } from '../../api/client';
import { ensureOk, unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import type { JobStatus } from '../../api/jobs';
import { findBestFit } from '../../entities/appointments/booking';
import type { OpenVisit } from '../../entities/open-visits/api';

type Schemas = components['schemas'];
export type BestFitResult = Schemas['BestFitResult'];
export type BestFit = Schemas['BestFit'];
export type CarePlanAllocation = Schemas['CarePlanAllocation'];
export type AllocationVisit = Schemas['CarePlanAllocationVisit'];

export const BEST_FIT_ERROR = 'An error has occurred. Could not find who could take the visit.';
export const FILL_ERROR = 'An error has occurred. Could not book the visit.';
export const REMOVE_ERROR = 'An error has occurred. Could not remove the open visit.';
export const ALLOCATION_START_ERROR = 'An error has occurred. Could not start planning the care visits.';
export const ALLOCATION_POLL_ERROR = 'An error has occurred. Could not load the care visits’ plan.';
export const ALLOCATION_APPLY_ERROR = 'An error has occurred. Could not book the care visits.';

/** The best fits for an open visit: its client, type, day, window and duration. */
export function findBestFits(api: ApiClient, visit: OpenVisit): Promise<BestFitResult> {
  return findBestFit(api, {
    client_id: visit.client.id, appointment_type_id: visit.appointment_type.id, date: visit.date,
    window_start: visit.window_start, window_end: visit.window_end, duration_minutes: visit.duration_minutes,
  });
}

export async function fillOpenVisit(api: ApiClient, id: number, choice: { practitioner_id: number; starts_at: string }) {
  return unwrap(await api.POST('/open_visits/{id}/fill', { params: { path: { id } }, body: choice }), FILL_ERROR);
}

export async function deleteOpenVisit(api: ApiClient, id: number): Promise<void> {
  ensureOk(await api.DELETE('/open_visits/{id}', { params: { path: { id } } }), REMOVE_ERROR);
}

/** An allocation as the job run follows it: its status in the words of jobs (running, complete, error), the allocation beside. */
export interface AllocationJob {
  id: number;
  status: JobStatus;
  allocation: CarePlanAllocation;
}

const JOB_STATUS: Record<CarePlanAllocation['status'], JobStatus> = { RUNNING: 'INPROGRESS', DONE: 'COMPLETE', APPLIED: 'COMPLETE', ERROR: 'ERROR' };
const asJob = (allocation: CarePlanAllocation): AllocationJob => ({ id: allocation.id, status: JOB_STATUS[allocation.status], allocation });

export async function startAllocation(api: ApiClient, request: { weeks?: number }): Promise<AllocationJob> {
  return asJob(unwrap(await api.POST('/care_plan_allocations', { body: request }), ALLOCATION_START_ERROR).allocation);
}

export async function fetchAllocation(api: ApiClient, id: number, signal?: AbortSignal): Promise<AllocationJob> {
  return asJob(unwrap(await api.GET('/care_plan_allocations/{id}', { params: { path: { id } }, signal }), ALLOCATION_POLL_ERROR).allocation);
}

export async function applyAllocation(api: ApiClient, id: number): Promise<CarePlanAllocation> {
  return unwrap(await api.POST('/care_plan_allocations/{id}/apply', { params: { path: { id } } }), ALLOCATION_APPLY_ERROR).allocation;
}
