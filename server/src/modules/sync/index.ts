export { syncHandlers } from './handlers';
// The sync jobs, merged with the other modules' in ../job-handlers.ts for whoever starts a worker or the scheduler.
export { automaticSyncRules, syncJobHandlers } from './job-handlers';
export { runImport } from './import-job';
// For tests: the reference-data pull on its own, and the change-log reason of a hand-placed pin an import replaced.
export { syncReferenceData } from './reference-sync';
export { MANUAL_PIN_REPLACED } from './places';
// For other modules: a new business's settings (accounts).
export { createSyncSettings } from './settings-service';
// For the dashboard: the last import and export the caller may read, as the API shows them.
export { lastSyncJobs, toExportDto, toImportDto } from './jobs-service';
// For optimizations: Undo of a run whose times were exported exports the restored ones (ADR 0023).
export { createSyncJob } from './jobs-service';
// For bookings (ADR 0024): a business's PMS adapter, the booking reference in notes, and the link of a visit to its PMS appointment.
export { adapterForAccount, findProviderAccount } from './pms-connection';
export { bookingNote, bookingReferenceIn, externalIdOf, linkAppointmentToPms, notesWithoutBookingNote, pmsLinkOf } from './booked-appointments';
export { externalToLocal } from './resource-maps';
