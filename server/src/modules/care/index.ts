export { careHandlers } from './handlers';
// The CARE_ALLOCATION job, for whoever starts a worker (through ../job-handlers.ts).
export { careJobHandlers } from './job';
