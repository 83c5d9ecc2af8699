export { careHandlers } from './handlers';
// The CARE_ALLOCATION job, for whoever starts a worker (through ../job-handlers.ts).
export { careJobHandlers } from './job';
// For the benchmark (bench/care-allocation.ts): generating the plans' open visits and working out an allocation.
export { allocate } from './allocation';
export { generateOpenVisits } from './generation';
