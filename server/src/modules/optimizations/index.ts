// What other modules use of optimisation runs and routes: marking routes stale when a visit on a routed day is moved,
// cancelled or added outside the optimiser (imports); the routes table is written only by this module.
export { markRoutesStale, type DayTouch } from './routes-service';
