export { remindersHandlers } from './handlers';
// For whoever starts a worker and the scheduler (../job-handlers.ts).
export { claimDueReminders, reminderJobHandlers } from './job-handlers';
// For Apply: telling the clients a re-plan moves.
export { queueReplanMessages, type ReplannedArrival } from './eta-replan';
export { tellPractitionersOfReplan } from './replan-practitioners';
// For the dashboard.
export { failedReminderSummary } from './service';
// For tests and the benchmark: one run of a business's reminders, with its settings.
export { runReminderBatch, REMINDER_SETTINGS, type ReminderBatchResult } from './service';
export type { ReminderChannel } from './channels';
export type { ReminderContent } from './message';
// For unit tests: the due hour, the arrival window and the unsubscribe token.
export { arrivalWindow } from './message';
export { reminderDueAt, reminderSlot } from './schedule';
export { clientOfUnsubscribeToken, unsubscribeToken } from './unsubscribe-tokens';
// For bookings: telling a client their visit was cancelled.
export { tellClientOfCancellation } from './cancellation-message';
