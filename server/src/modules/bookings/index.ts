// Booking, rescheduling and cancelling visits in Rounds, written through to the PMS (ADR 0024), and best fit.
export { bookingsHandlers } from './handlers';
export { bookingJobHandlers } from './job-handlers';
// For the care module: booking visits (one, or many in one transaction), cancelling one, and best fit for a visit.
export { bookVisit, bookVisits, cancelVisit, lockBookingDay, type BookedVisitResult, type BookingOptions, type BookVisitInput } from './service';
export { findBestFit } from './best-fit';
