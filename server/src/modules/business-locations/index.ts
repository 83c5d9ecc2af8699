export { businessLocationsHandlers } from './handlers';
// For the practitioners module: the places a practitioner's day may start or end at.
export { businessLocationAddress } from './dto';
export { findBusinessLocation, listBusinessLocations, type BusinessLocationRow } from './repository';
