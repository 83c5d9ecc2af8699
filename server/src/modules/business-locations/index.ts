export { businessLocationsHandlers } from './handlers';
// For the practitioners module: the places a practitioner's day may start or end at.
export { businessLocationAddress } from './dto';
export { findBusinessLocation, listBusinessLocations, type BusinessLocationRow } from './repository';
// For sync's reference-data pull (in its transaction): what the practice management system says of them.
export { findBusinessLocationRow, insertBusinessLocationFromPms, updateBusinessLocationFromPms } from './repository';
