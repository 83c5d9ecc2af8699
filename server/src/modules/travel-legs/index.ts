// Travel legs of practitioners' days (issue 13): the one place reports and other pages read travel from.
export { legsOfDay, LEGS_COUNTED, travelDays, type DaysQuery, type LegSource, type LegVisit, type TravelDay, type TravelLeg } from './service';
