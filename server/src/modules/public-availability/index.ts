export { publicAvailabilityHandlers } from './handlers';
