export { nearbyHandlers } from './handlers';
