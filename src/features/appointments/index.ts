// What other features and the shell use of the appointments feature.
export { AppointmentDetailsModal } from './AppointmentDetailsModal';
export type { Appointment, AppointmentType, BusinessLocation, Practitioner } from './api';
export { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from './queries';
