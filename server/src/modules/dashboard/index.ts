export { dashboardHandlers } from './handlers';
