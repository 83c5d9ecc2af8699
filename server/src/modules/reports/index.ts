export { reportsHandlers } from './handlers';
