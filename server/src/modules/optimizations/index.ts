export { optimizationsHandlers } from './handlers';
// The OPTIMIZE job, for whoever starts a worker (through ../job-handlers.ts).
export { optimizationJobHandlers } from './job';
// For tests: a run's day rebuilt from the database (to check applied routes independently) and applying a proposal.
export { loadDay, problemOf, travelProviderFor } from './day';
export type { OptimizationMode } from './problem';
export { applyOptimization, SCHEDULE_CHANGED } from './service';
// Marking routes stale when a visit on a routed day is moved, cancelled or added outside the optimiser (imports);
// the routes table is written only by this module.
export { markRoutesStale, type DayTouch } from './routes-service';
// The one availability rule (reports count the visits it puts outside).
export { availabilityChecker } from './problem';
