// What other features use of routes: the practitioner's run sheet, the day's routes and their drawing on the map.
export { RunSheet } from './RunSheet';
export { routeQueries } from './queries';
export { dayPlans, mapRouteOf } from './dayPlan';
export { useRoadPaths } from './useRoadPaths';
