export { clientsHandlers } from './handlers';
// For the clients' own availability page (modules/public-availability).
export { normaliseAvailability } from './availability';
export { verifiedTokenHash } from './availability-tokens';
export { markAvailabilityRequestUsed, setClientAvailability } from './repository';
// For the appointment reminders (modules/reminders): the availability links they carry and the unsubscribe link.
export { issueReminderAvailabilityLinks, turnOffRemindersByLink } from './service';
// For sync's imports (in their transaction): the patients of the practice management system as clients.
export { upsertImportedClients, type ImportedClient } from './repository';
