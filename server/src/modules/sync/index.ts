export { syncHandlers } from './handlers';
// The sync jobs, for whoever starts a worker or the scheduler (main.ts, worker-main.ts, the demo seed, benchmarks, tests).
export { automaticSyncRules, syncJobHandlers } from './job-handlers';
export { runImport } from './import-job';
// For other modules: a new business's settings (accounts) and an appointment's import and export history (appointments).
export { createSyncSettings } from './settings-service';
export { appointmentSyncHistory, type AppointmentSyncHistory, type SyncHistoryEntry } from './appointment-history';
