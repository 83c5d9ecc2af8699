export { geocodingHandlers } from './handlers';
