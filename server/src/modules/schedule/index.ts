// The schedule: the day model (a day's visits, its clock, a client's availability on it) and its rules (ADR 0020):
// the rule book, the client windows the optimiser keeps to, the day checker and the checks of a plan or an edit.
export {
  availabilityChecker, availabilityWindows, currentArrival, dayBounds, dayOf, dayStartMs, secondsOf, startsOutside, type DayBounds, type DayVisit,
} from './day-model';
export { businessTimeZone, dayVisits, findVisit } from './day-visits';
export { bookedTogether, isDoubleHanded, RULES, ruleBookOf, toleranceWindow, type RuleBook, type RuleId, type RuleSettings, type TypeRules } from './rules';
export { loadRuleBook } from './rule-book';
export { clientWindows, type ClientVisitTimes } from './client-windows';
export { countsByRule, dayIssues, issueKey, newHardIssues, type CheckedVisit, type DayIssue } from './day-check';
export { asTheyAre, hardIssuesAdded, issuesOfPlan, ruleIssueDto, type CheckContext, type Placement } from './rule-check';
export { hardIssuesAddedBy, newHardIssuesOfEdit, refuseHardBreaks, type VisitEdit } from './edit-check';
