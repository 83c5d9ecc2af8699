// The reports' calls: each report is one GET answering its rows and summary for the filters.
import type { ApiClient } from '../../api/client';
import type { components, operations } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
export type ReportQuery = NonNullable<operations['reportClientsMissingAddress']['parameters']['query']>;
export type ClientMissingAddressRow = Schemas['ClientMissingAddressRow'];
export type AddressProblem = ClientMissingAddressRow['problems'][number];
export type ActivityQuery = NonNullable<operations['reportActivity']['parameters']['query']>;
export type ActivityRow = Schemas['ActivityRow'];
export type ActivityKind = Schemas['ActivityKind'];
export type AppointmentsReportQuery = NonNullable<operations['reportAppointments']['parameters']['query']>;
export type AppointmentsGroupBy = NonNullable<AppointmentsReportQuery['group_by']>;
export type AppointmentsReportRow = Schemas['AppointmentsReportRow'];

export type PractitionerTravelReport = operations['reportPractitionerTravel']['responses']['200']['content']['application/json'];
export type PractitionerTravelRow = Schemas['PractitionerTravelRow'];
export type PractitionerTravelDay = Schemas['PractitionerTravelDay'];
export type TravelLegRow = Schemas['TravelLegRow'];
export type PractitionerTravelLegsQuery = NonNullable<operations['reportPractitionerTravelLegs']['parameters']['query']>;
export type ClientTravelQuery = NonNullable<operations['reportClientTravel']['parameters']['query']>;
export type ClientTravelVisitsQuery = NonNullable<operations['reportClientTravelVisits']['parameters']['query']>;
export type ClientTravelRow = Schemas['ClientTravelRow'];
export type ClientTravelVisit = Schemas['ClientTravelVisit'];

export type PractitionerPerformanceRow = Schemas['PractitionerPerformanceRow'];
export type PractitionerPerformanceSummary = Schemas['PractitionerPerformanceSummary'];
export type ClientGeographyQuery = NonNullable<operations['reportClientGeography']['parameters']['query']>;
export type ClientGeographyRow = Schemas['ClientGeographyRow'];
export type ClientGeographyGroup = Schemas['ClientGeographyGroup'];
export type VisitVerificationQuery = NonNullable<operations['reportVisitVerification']['parameters']['query']>;
export type VisitVerificationRow = Schemas['VisitVerificationRow'];
export type VisitDurationRow = Schemas['VisitDurationRow'];
export type VisitMissedRow = operations['reportVisitVerification']['responses']['200']['content']['application/json']['missed'][number];

export const REPORT_LOAD_ERROR = 'An error has occurred. Could not load the report.';

export async function fetchClientsMissingAddress(api: ApiClient, query: ReportQuery) {
  return unwrap(await api.GET('/reports/clients-missing-address', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchPractitionerTravel(api: ApiClient, query: ReportQuery) {
  return unwrap(await api.GET('/reports/practitioner-travel', { params: { query } }), REPORT_LOAD_ERROR);
}

/** A practitioner's days and legs (the drill-down), or every leg of the range (the legs CSV). */
export async function fetchPractitionerTravelLegs(api: ApiClient, query: PractitionerTravelLegsQuery) {
  return unwrap(await api.GET('/reports/practitioner-travel/legs', { params: { query } }), REPORT_LOAD_ERROR);
}

/** Each visit's claimable travel (the visits CSV). */
export async function fetchClientTravelVisits(api: ApiClient, query: ClientTravelVisitsQuery) {
  return unwrap(await api.GET('/reports/client-travel/visits', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchClientTravel(api: ApiClient, query: ClientTravelQuery) {
  return unwrap(await api.GET('/reports/client-travel', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchActivity(api: ApiClient, query: ActivityQuery) {
  return unwrap(await api.GET('/reports/activity', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchAppointmentsReport(api: ApiClient, query: AppointmentsReportQuery) {
  return unwrap(await api.GET('/reports/appointments', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchPractitionerPerformance(api: ApiClient, query: ReportQuery) {
  return unwrap(await api.GET('/reports/practitioner-performance', { params: { query } }), REPORT_LOAD_ERROR);
}

export async function fetchClientGeography(api: ApiClient, query: ClientGeographyQuery) {
  return unwrap(await api.GET('/reports/client-geography', { params: { query } }), REPORT_LOAD_ERROR);
}

/** Each visit's record (the EVV export), with actual vs planned. */
export async function fetchVisitVerification(api: ApiClient, query: VisitVerificationQuery) {
  return unwrap(await api.GET('/reports/visit-verification', { params: { query } }), REPORT_LOAD_ERROR);
}
