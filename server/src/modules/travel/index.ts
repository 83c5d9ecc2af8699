export { travelHandlers } from './handlers';
