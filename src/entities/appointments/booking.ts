// Booking, rescheduling and cancelling visits in Rounds (written through to the practice management system), the best
// fits for a visit, and the writes to the PMS that need the coordinator (Try again, Discard, Overwrite).
import type { ApiClient } from '../../api/client';
import type { components, operations } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
type Body<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type BestFitRequest = Body<'findBestFit'>;
export type BestFitResult = Schemas['BestFitResult'];
export type BestFit = Schemas['BestFit'];
export type BookVisitRequest = Body<'bookVisit'>;
export type RescheduleRequest = Body<'rescheduleVisit'>;
export type CancelRequest = Body<'cancelVisit'>;
export type CancellationReasonCode = Schemas['CancellationReasonCode'];
export type CancellationReason = { code: CancellationReasonCode; label: string };
export type PmsWrite = Schemas['PmsWrite'];
export type PmsWriteState = PmsWrite['state'];
export type CancelledVisit = operations['cancelVisit']['responses'][200]['content']['application/json'];
export type DiscardedWrite = operations['discardPmsWrite']['responses'][200]['content']['application/json'];
type ChangedVisit = operations['bookVisit']['responses'][201]['content']['application/json'];

export const BOOKING_ERRORS = {
  bestFit: 'An error has occurred. Could not find the best fits for this visit.',
  book: 'An error has occurred. The visit was not booked.',
  reasons: 'An error has occurred. Could not load the cancellation reasons.',
  reschedule: 'An error has occurred. The visit was not rescheduled.',
  cancel: 'An error has occurred. The visit was not cancelled.',
  retry: 'An error has occurred. Could not try the write again.',
  discard: 'An error has occurred. Could not discard the write.',
} as const;

/** The PMS the writes go to, as the coordinator knows it. */
export const PMS_NAME = 'Cliniko';

/** A write's state on the lane and in the list, while it is not saved (what pms_write_state says). */
export const PMS_WRITE_MARKS: Record<'saving' | 'failed' | 'conflict', string> = {
  saving: `Saving to ${PMS_NAME}…`,
  failed: 'Not saved',
  conflict: `Changed in ${PMS_NAME}`,
};

export async function findBestFit(api: ApiClient, body: BestFitRequest): Promise<BestFitResult> {
  return unwrap(await api.POST('/visits/best_fit', { body }), BOOKING_ERRORS.bestFit);
}

export async function bookVisit(api: ApiClient, body: BookVisitRequest): Promise<ChangedVisit> {
  return unwrap(await api.POST('/visits', { body }), BOOKING_ERRORS.book);
}

export async function fetchCancellationReasons(api: ApiClient): Promise<CancellationReason[]> {
  return unwrap(await api.GET('/visits/cancellation_reasons'), BOOKING_ERRORS.reasons).reasons;
}

export async function rescheduleVisit(api: ApiClient, id: number, body: RescheduleRequest): Promise<ChangedVisit> {
  return unwrap(await api.PATCH('/visits/{id}/reschedule', { params: { path: { id } }, body }), BOOKING_ERRORS.reschedule);
}

export async function cancelVisit(api: ApiClient, id: number, body: CancelRequest): Promise<CancelledVisit> {
  return unwrap(await api.POST('/visits/{id}/cancel', { params: { path: { id } }, body }), BOOKING_ERRORS.cancel);
}

export async function retryPmsWrite(api: ApiClient, id: number, overwrite = false): Promise<PmsWrite> {
  return unwrap(await api.POST('/pms_writes/{id}/retry', { params: { path: { id } }, body: { overwrite } }), BOOKING_ERRORS.retry).pms_write;
}

export async function discardPmsWrite(api: ApiClient, id: number): Promise<DiscardedWrite> {
  return unwrap(await api.POST('/pms_writes/{id}/discard', { params: { path: { id } } }), BOOKING_ERRORS.discard);
}

/** A booking's request id, made once per dialog: the same booking sent twice (a double click, a retry) books once. */
export function newRequestId(): string {
  return `book-${crypto.randomUUID()}`;
}
