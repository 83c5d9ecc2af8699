export { appointmentsHandlers } from './handlers';
// For the optimizations module: the appointment as the API answers it (after taking it off its route).
export { AppointmentsService } from './service';
