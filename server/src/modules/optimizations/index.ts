export { optimizationsHandlers } from './handlers';
// The OPTIMIZE job, for whoever starts a worker (through ../job-handlers.ts).
export { optimizationJobHandlers } from './job';
// For tests: a run's day rebuilt from the database (to check applied routes independently) and applying a proposal.
export { loadDay, problemOf } from './day';
export type { OptimizationMode } from './problem';
export { applyOptimization, SCHEDULE_CHANGED } from './service';
// Marking routes stale when a visit on a routed day is moved, cancelled or added outside the optimiser (imports);
// the routes table is written only by this module.
export { markRoutesStale, type DayTouch } from './routes-service';
// For the dashboard: the routes of a range of days (the day's visits, clock and availability, and which days are
// accepted, are the schedule module's; its travel, the travel module's).
export { listRouteDaysBetween, type RouteDay } from './routes-repository';
// For the nearby search: a hypothetical visit placed in practitioners' days as "Insert into a route" places one.
export { insertionProblem, placeOfInsertion, type InsertionProblem } from './visits-service';
export { routingProblems, type DayData } from './problem';
