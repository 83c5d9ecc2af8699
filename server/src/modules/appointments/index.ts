export { appointmentsHandlers } from './handlers';
// For the sync handlers and the dashboard: the appointment as the API answers it, and the app's one list cache.
export { appointmentsServiceOf, type AppointmentsService } from './service';
// For the dashboard: today's overdue visits (the desk's rule, server/src/lib/overdue.ts).
export { deskAlerts, type DeskAlertVisit, type TravelToVisits } from './desk';
// For the demo seed: today's earlier visits walked through their steps, as the phones would have.
export { VisitStepsService } from './visit-steps';
// For the reports: what each step is called.
export { STEP_WORDS } from './visit-steps';
// For the reports: each visit of a range with what its steps said (the visit verification report, actual-vs-planned).
export { visitRecords, type StepRecorder, type VisitRecord, type VisitRecordFilter } from './visit-records';
// For bookings: the appointment as the API answers it, read in the caller's transaction.
export { findAppointment } from './repository';
