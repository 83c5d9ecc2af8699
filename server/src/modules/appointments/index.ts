export { appointmentsHandlers } from './handlers';
