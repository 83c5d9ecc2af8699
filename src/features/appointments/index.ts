// What other features and the shell use of the appointments feature.
export { AppointmentDetailsModal } from './AppointmentDetailsModal';
export { changeLineText } from './ChangeLog';
export type { Appointment, AppointmentSummary, AppointmentType, BusinessLocation, Practitioner } from './api';
// The dashboard's practitioner day carries today's list in the list's shape.
export { summariesOf } from './api';
export { appointmentTimeZone, arrivalOf, isCancelled } from './appointmentFacts';
export { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from './queries';
export { VisitFilters, type VisitFilterValue } from './VisitFilters';
