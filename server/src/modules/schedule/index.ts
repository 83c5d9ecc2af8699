// The schedule's rules (ADR 0020): the rule book, the client windows the optimiser keeps to, the day checker.
export { isDoubleHanded, RULES, ruleBookOf, toleranceWindow, type RuleBook, type RuleId, type RuleSettings, type TypeRules } from './rules';
export { clientWindows, type ClientVisitTimes } from './client-windows';
export { dayIssues, countsByRule, issueKey, newHardIssues, type CheckedVisit, type DayIssue } from './day-check';
export { loadRuleBook } from './rule-book';
