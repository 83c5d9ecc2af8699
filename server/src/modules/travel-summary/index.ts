// The travel summary (ADR 0017): per practitioner-day and per visit, the travel-legs module's figures, kept fresh by
// the change tracking of migration 0064. Reports call freshTravelSummary() for their range, then read the tables.
export { freshTravelSummary, summaryDayTotals, travelModelOf, workingSecondsOf } from './service';
export type { SummaryDayTotals } from './repository';
export { DAY_TOTALS } from './repository';
