export { appointmentTypesHandlers } from './handlers';
// For the practitioners module: the appointment types a practitioner may be given as skills.
export { listAppointmentTypes, type AppointmentTypeRow } from './repository';
// For sync's reference-data pull (in its transaction): what the practice management system says of them.
export { findAppointmentTypeRow, insertAppointmentTypeFromPms, updateAppointmentTypeFromPms } from './repository';
