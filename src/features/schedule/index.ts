// What the shell uses of the schedule feature: the appointment modal (opened from the shell's modal host). The router
// loads the day page itself (AppointmentsPage). The feature's data (entity types, query factories, the day plan,
// facts) is in src/entities/appointments and src/entities/routes.
export { AppointmentDetailsModal } from './AppointmentDetailsModal';
