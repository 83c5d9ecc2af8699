export { practitionersHandlers } from './handlers';
