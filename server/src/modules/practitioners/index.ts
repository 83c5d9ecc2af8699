export { practitionersHandlers } from './handlers';
// The optimiser's view of a practitioner's day (tests; a run may read it from here).
export { loadPractitionerDays, loadPractitionerDaysOn, loadStartPlaces, loadWorkingTime, resolvePractitionerDay, type PractitionerDay, type RoutingBreak } from './service';
export { utilisationOf, workingSecondsOf } from './utilisation';
