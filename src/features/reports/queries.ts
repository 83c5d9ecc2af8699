// The reports' server data, one query-options factory (record 0006): a report's answer is keyed by its filters.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import {
  fetchActivity, fetchAppointmentsReport, fetchClientGeography, fetchClientsMissingAddress, fetchClientTravel, fetchPractitionerPerformance,
  fetchPractitionerTravel, fetchPractitionerTravelLegs, fetchVisitVerification, type ActivityQuery, type AppointmentsReportQuery, type ClientGeographyQuery, type ClientTravelQuery, type PractitionerTravelLegsQuery,
  type ReportQuery, type VisitVerificationQuery,
} from './api';

export const reportQueries = {
  all: () => ['reports'] as const,
  clientsMissingAddress: (api: ApiClient, query: ReportQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'clients-missing-address', query] as const,
      queryFn: () => fetchClientsMissingAddress(api, query),
      // The last answer stays on screen while a changed filter loads.
      placeholderData: keepPreviousData,
    }),
  practitionerTravel: (api: ApiClient, query: ReportQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'practitioner-travel', query] as const,
      queryFn: () => fetchPractitionerTravel(api, query),
      placeholderData: keepPreviousData,
    }),
  /** One practitioner's days and legs: asked for when the drill-down opens. */
  practitionerTravelLegs: (api: ApiClient, query: PractitionerTravelLegsQuery & { practitioner_id: number }) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'practitioner-travel-legs', query] as const,
      queryFn: () => fetchPractitionerTravelLegs(api, query),
    }),
  clientTravel: (api: ApiClient, query: ClientTravelQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'client-travel', query] as const,
      queryFn: () => fetchClientTravel(api, query),
      placeholderData: keepPreviousData,
    }),
  activity: (api: ApiClient, query: ActivityQuery) =>
    queryOptions({ queryKey: [...reportQueries.all(), 'activity', query] as const, queryFn: () => fetchActivity(api, query), placeholderData: keepPreviousData }),
  appointments: (api: ApiClient, query: AppointmentsReportQuery) =>
    queryOptions({ queryKey: [...reportQueries.all(), 'appointments', query] as const, queryFn: () => fetchAppointmentsReport(api, query), placeholderData: keepPreviousData }),
  practitionerPerformance: (api: ApiClient, query: ReportQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'practitioner-performance', query] as const,
      queryFn: () => fetchPractitionerPerformance(api, query),
      placeholderData: keepPreviousData,
    }),
  clientGeography: (api: ApiClient, query: ClientGeographyQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'client-geography', query] as const,
      queryFn: () => fetchClientGeography(api, query),
      placeholderData: keepPreviousData,
    }),
  visitVerification: (api: ApiClient, query: VisitVerificationQuery) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'visit-verification', query] as const,
      queryFn: () => fetchVisitVerification(api, query),
      placeholderData: keepPreviousData,
    }),
};
