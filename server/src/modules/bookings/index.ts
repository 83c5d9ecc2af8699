// Booking, rescheduling and cancelling visits in Rounds, written through to the PMS (ADR 0024), and best fit.
export { bookingsHandlers } from './handlers';
export { bookingJobHandlers } from './job-handlers';
// For the care module: booking a visit (in its transaction), cancelling one, the booking day's lock, and best fit.
export { bookVisit, cancelVisit, lockBookingDay, refuseWithoutPms, type BookedVisitResult, type BookingOptions, type BookVisitInput } from './service';
export { findBestFit } from './best-fit';
