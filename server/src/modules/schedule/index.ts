// The schedule: the day model (a day's visits, its clock, a client's availability on it) and its rules (ADR 0020):
// the rule book, the client windows the optimiser keeps to, the day checker and the checks of a plan or an edit.
export {
  availabilityChecker, availabilityWindows, checkDay, currentArrival, dayBounds, dayOf, dayStartMs, instantOfSeconds, secondsOf, startsOutside, type DayBounds, type DayVisit,
} from './day-model';
export { dayStaff, dayVisits, findVisit, type StaffOfDay } from './day-visits';
export { bookedTogether, isDoubleHanded, RULES, ruleBookOf, toleranceWindow, type RuleBook, type RuleId, type RuleSettings, type TypeRules } from './rules';
export { loadRuleBook } from './rule-book';
export { clientWindows, type ClientVisitTimes } from './client-windows';
export { countsByRule, dayIssues, issueKey, newHardIssues, type CheckedVisit, type DayIssue, type TravelBetween } from './day-check';
export {
  asTheyAre, checkPlan, dayCheckOf, hardIssuesAdded, issuesOfPlan, practitionersOnClock, ruleIssueDto,
  type CheckContext, type DayCheck, type Placement, type PlanCheck, type PlannedVisit,
} from './rule-check';
export {
  hardIssuesOfPlan, issuesAddedBy, loadDayCheck, issuesAddedByEdit, refuseHardBreaks, refuseHardBreaksOfNewVisit, type AddedIssues, type RuleWarning, type VisitEdit,
} from './edit-check';
export { osrmFor, travelProviderFor } from './travel-provider';
// The one writer of appointments, routes and visit_steps (docs/decisions/0008): the modules built on the schedule write
// visits, routes and steps through these, in their own transactions.
export {
  cancelVanishedVisits, clearAppointmentRoute, lockAppointmentRoute, lockPartners, moveAppointment, moveUpcomingVisits, updateRoutedVisits,
  upsertImportedVisits, writeArrival, writeArrivalLock, writeBackExportedVisit, type ImportedVisit, type RoutedVisitUpdate, type VisitMove,
  // Bookings (written through to the PMS): a visit booked in Rounds, cancelled, removed when never saved, or put back as the PMS has it.
  cancelAppointment, deleteBookedVisit, insertBookedVisit, lockVisitRow, writeVisitFromPms, type BookedVisit,
} from './appointment-writes';
export { insertStep, setStepNote, setVisitState, type NewVisitStep, type VisitStepRow } from './visit-step-writes';
export {
  dropStopFromRoute, listRouteDaysBetween, listRoutesOfDay, replaceRoutes, replaceRouteStops, restoreRoutes, savedRoutesOfDay,
  type DayTouch, type NewRoute, type RouteDay, type RouteRow, type SavedRoute,
} from './routes-repository';
export { markRoutesStale, removeFromRoute, toRouteDto } from './routes-service';
// Moving a visit by hand (PATCH /appointments/{id}/move, served by the appointments module's handlers).
export { excludedMessage, moveVisit } from './visit-moves';
// Bookings: the same checks and route placement for a new visit, and a move inside the booking's transaction.
export { joinRouteOfDay, parseStart, refuseUnqualified, type MoveOptions } from './visit-moves';
export { scheduleHandlers } from './handlers';
