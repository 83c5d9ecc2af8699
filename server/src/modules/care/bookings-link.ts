// How care books and cancels visits: through the bookings module (written to the PMS, the day checker, the change
// log). A booking runs in the caller's transaction, so an open visit leaves the list together with the booking that
// fills it; a cancellation runs in its own (bookings' cancelVisit), before the care tables change, except the one an
// open visit takes the place of (cancelInTx: both or neither).
import type { AuthContext } from '../../auth/access';
import type { Tx } from '../../db/client';
import type { BodyOf } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { HttpError } from '../../http/errors';
import { bookVisit, cancelVisit, lockBookingDay, refuseWithoutPms, type BookedVisitResult, type BookingOptions, type BookVisitInput } from '../bookings';

/** The PMS's cancellation reasons care uses (Cliniko's codes). */
export type CancelReason = BodyOf<'cancelVisit'>['reason'];
export const CANCEL_SICK: CancelReason = 30;
export const CANCEL_AWAY: CancelReason = 40;
export const CANCEL_OTHER: CancelReason = 50;

/** Refuses (409 PMS_NOT_CONNECTED) booking when the business has no usable PMS connection, before any work. */
export const requirePmsConnection = (ctx: AppContext, business: number) => refuseWithoutPms(ctx.db, business);

export { bookVisit, lockBookingDay, type BookVisitInput };

export function bookInTx(ctx: AppContext, auth: AuthContext, tx: Tx, input: BookVisitInput, options?: BookingOptions): Promise<BookedVisitResult> {
  return bookVisit(ctx, auth, input, tx, options);
}

/** Cancels a booked visit in the caller's transaction, as POST /visits/{id}/cancel does (404, 409 alike). */
export function cancelInTx(ctx: AppContext, auth: AuthContext, tx: Tx, id: number, reason: CancelReason, note: string) {
  return cancelVisit(ctx, auth, id, { reason, note }, tx);
}

/**
 * Cancels booked visits (each in its own transaction, written to the PMS); answers those cancelled. One that started or
 * was cancelled meanwhile is left as it is.
 */
export async function cancelBooked(ctx: AppContext, auth: AuthContext, appointmentIds: readonly number[], reason: CancelReason, note: string): Promise<number[]> {
  const cancelled: number[] = [];
  for (const id of appointmentIds) {
    try {
      await cancelVisit(ctx, auth, id, { reason, note });
      cancelled.push(id);
    } catch (error) {
      if (!(error instanceof HttpError) || (error.statusCode !== 409 && error.statusCode !== 404)) throw error;
    }
  }
  return cancelled;
}
