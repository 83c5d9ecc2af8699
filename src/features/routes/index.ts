// What the appointments feature uses of routes: the day schedule's
// Optimise action and route marks, "Unavailable from now" (re-planning today), the day's problems by the rule book, travel warnings and moving a visit by dragging
// it, and the appointment modal's route controls, travel warning and Move section. The day's routes as data (types,
// query factories, the day plan) are in src/entities/routes.
export { AppointmentRouteControls } from './AppointmentRouteControls';
export { MoveVisitControls } from './MoveVisitControls';
export { useMoveAppointment } from './mutations';
export { LaneDayTimes, OptimiseAction, RouteLaneMark, StaleRoutesBanner } from './DayRoutes';
export { DayIssuesBanner, useDayIssues, useVisitProblems, type VisitProblem } from './DayIssues';
export { TravelWarning, useTravelWarnings, useVisitsOnLeave } from './TravelWarning';
export { UnavailableFromNow } from './UnavailableFromNow';
