export { businessAccountHandlers } from './handlers';
// For the users module (the signed-in user's business summary) and the reminders: the map centre with its default.
export { DEFAULT_MAP_CENTER, mapCenterOf } from './dto';
// For every module that counts days and clocks in the business's time zone.
export { businessTimeZone } from './repository';
