// Travel (ADR 0015), over the schedule's one travel provider (OSRM when OSRM_URL is set, else the optimiser's
// great-circle model): the legs of practitioners' days (from the applied route where it still says them), the travel summary the reports and
// the dashboard read (ADR 0017), the day's travel warnings, and the travel between points (POST /travel).
export { travelHandlers } from './handlers';
export { LEGS_COUNTED, travelDays, type LegVisit, type TravelDay, type TravelLeg } from './legs';
export { freshTravelSummary, summaryDayTotals, workingSecondsOf } from './summaries';
export { DAY_TOTALS, type SummaryDayTotals } from './summary-repository';
