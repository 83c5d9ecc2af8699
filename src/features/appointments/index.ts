// What other features and the shell use of the appointments feature: its modal (opened from the shell's modal host).
// Its data (entity types, query factories, facts) is in src/entities/appointments.
export { AppointmentDetailsModal } from './AppointmentDetailsModal';
