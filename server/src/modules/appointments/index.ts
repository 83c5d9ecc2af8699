export { appointmentsHandlers } from './handlers';
// For the optimizations module: the appointment as the API answers it (after taking it off its route).
export { AppointmentsService } from './service';
// The appointment writes other modules ask for (clients: a corrected pin; optimizations: routes).
export {
  clearAppointmentRoute, lockAppointmentRoute, moveUpcomingVisits, updateRoutedVisits, type RoutedVisitUpdate,
  moveAppointment, type VisitMove, lockPartners,
} from './writes';
// For sync: an import's visits, its sweep of vanished ones and an export's write-back, in their transactions.
export { cancelVanishedVisits, upsertImportedVisits, writeBackExportedVisit, type ImportedVisit } from './writes';
// For the dashboard: today's overdue visits (the desk's rule, server/src/lib/overdue.ts).
export { overdueVisits, type OverdueVisit } from './desk';
// For the demo seed: today's earlier visits walked through their steps, as the phones would have.
export { VisitStepsService } from './visit-steps';
// For the reports: each visit of a range with what its steps said (the visit verification report, actual-vs-planned).
export { visitRecords, type VisitRecord, type VisitRecordFilter } from './visit-records';
