export { appointmentTypesHandlers } from './handlers';
