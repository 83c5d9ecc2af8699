export { configHandlers } from './handlers';
