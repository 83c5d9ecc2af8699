// What other modules use of the practitioners: the optimiser's view of their day (the one resolver of a
// practitioner's routing data).
export { loadPractitionerDays, type PractitionerDay, type RoutingBreak } from './service';
