// How care books and cancels visits: through the bookings module (written to the PMS, the day checker, the change log),
// in the caller's transaction so an open visit leaves the list together with the booking that fills it.
import type { AuthContext } from '../../auth/access';
import type { Tx } from '../../db/client';
import type { BodyOf } from '../../http/contract';
import type { AppContext } from '../../http/context';

export type BookVisitInput = BodyOf<'bookVisit'>;

/** The PMS's cancellation reasons care uses (Cliniko's codes). */
export const CANCEL_SICK = 30;
export const CANCEL_AWAY = 40;
export const CANCEL_OTHER = 50;

export interface Booked { appointmentId: number; body: unknown }

export async function bookInTx(_ctx: AppContext, _auth: AuthContext, _tx: Tx, _input: BookVisitInput): Promise<Booked> {
  throw new Error('bookings module not merged yet');
}

export async function cancelInTx(_ctx: AppContext, _auth: AuthContext, _tx: Tx, _appointmentId: number, _reason: number, _note: string): Promise<void> {
  throw new Error('bookings module not merged yet');
}
