export { optimizationsHandlers } from './handlers';
// The OPTIMIZE job, for whoever starts a worker (through ../job-handlers.ts).
export { optimizationJobHandlers } from './job';
// For tests: a run's day rebuilt from the database (to check applied routes independently) and applying a proposal.
export { loadDay, problemOf } from './day';
export type { OptimizationMode } from './problem';
export { applyOptimization, SCHEDULE_CHANGED } from './service';
// For the nearby search: a hypothetical visit placed in practitioners' days as "Insert into a route" places one.
export { insertionProblem, placeOfInsertion, type InsertionProblem } from './visits-service';
export { routingProblems, type DayData } from './problem';
