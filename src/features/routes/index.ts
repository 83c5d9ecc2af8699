// What other features use of routes: the practitioner's run sheet, the day's routes and their drawing on the map, the
// day schedule's Optimise action and route marks, the day's problems by the rule book, travel warnings and moving a
// visit by dragging it, and the appointment modal's route controls, travel warning and Move section.
export { AppointmentRouteControls } from './AppointmentRouteControls';
export { MoveVisitControls } from './MoveVisitControls';
export { canPlanRoutes } from './access';
export { useFixedBeforeMinutes } from './fixedVisits';
export { dayPlans, mapRouteOf } from './dayPlan';
export { useMoveAppointment } from './mutations';
export { LaneDayTimes, OptimiseAction, RouteLaneMark, StaleRoutesBanner } from './DayRoutes';
export { DayIssuesBanner, useDayIssues, useVisitProblems, type VisitProblem } from './DayIssues';
export { routeQueries } from './queries';
export { RunSheet } from './RunSheet';
export { TravelWarning, useTravelWarnings, useVisitsOnLeave } from './TravelWarning';
export { useRoadPaths } from './useRoadPaths';
