export { practitionersHandlers } from './handlers';
// The optimiser's view of a practitioner's day (tests; a run may read it from here).
export { loadPractitionerDays, loadPractitionerDaysOn, loadStartPlaces, loadWorkingTime, resolvePractitionerDay, type PractitionerDay, type RoutingBreak } from './service';
export { utilisationOf, workingSecondsOf } from './utilisation';
// For sync's reference-data pull (in its transaction): what the practice management system says of them.
export { findPractitionerRow, insertPractitionerFromPms, updatePractitionerFromPms } from './repository';
// A practitioner's qualifications (the PMS's list narrowed by Rounds' choice; null = unknown), the one rule every reader uses.
export { effectiveQualifications } from './working-data';
