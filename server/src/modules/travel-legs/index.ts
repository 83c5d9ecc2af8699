// Travel legs of practitioners' days (issue 13): the one place reports, the day's travel warnings and other pages
// read travel between visits from.
export { legsOfDay, LEGS_COUNTED, travelDays, type DaysQuery, type LegRoute, type LegSource, type LegVisit, type TravelDay, type TravelLeg } from './service';
export { routesOfDays } from './repository';
