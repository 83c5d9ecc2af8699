// What other features and the shell use of the routes feature.
export { AppointmentRouteControls } from './AppointmentRouteControls';
export { canPlanRoutes } from './access';
export { dayPlans, mapRouteOf } from './dayPlan';
export { OptimiseAction, RouteLaneMark, StaleRoutesBanner } from './DayRoutes';
export { routeQueries } from './queries';
export { RunSheet } from './RunSheet';
export { useRoadPaths } from './useRoadPaths';
