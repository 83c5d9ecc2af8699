export { businessAccountHandlers } from './handlers';
// For the users module (the signed-in user's business summary) and the reminders: the map centre with its default.
export { DEFAULT_MAP_CENTER, mapCenterOf } from './dto';
