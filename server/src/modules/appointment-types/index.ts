export { appointmentTypesHandlers } from './handlers';
// For the practitioners module: the appointment types a practitioner may be given as skills.
export { listAppointmentTypes, type AppointmentTypeRow } from './repository';
