export { customLocationsHandlers } from './handlers';
// For the practitioners module: the places a practitioner's day may start or end at.
export { findCustomLocation, listCustomLocations, type CustomLocationRow } from './repository';
