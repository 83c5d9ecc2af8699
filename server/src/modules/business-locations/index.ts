export { businessLocationsHandlers } from './handlers';
