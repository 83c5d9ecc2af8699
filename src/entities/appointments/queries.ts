// Appointments' server data (shared by every feature that shows visits), one query-options factory per resource: each piece of data has
// exactly one key, and invalidations use the same keys. The reference lists (practitioners, appointment
// types, business locations) live here too; the sync forms and settings pages read them through these.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import {
  fetchAllAppointmentTypes,
  fetchAllBusinessLocations,
  fetchAllPractitioners,
  fetchAppointment,
  fetchAppointmentExtraDetails,
  listAppointments,
  type AppointmentListQuery,
} from './api';
import { fetchCancellationReasons } from './booking';

export const appointmentQueries = {
  /** Every appointments list (table pages and schedule days). */
  lists: () => ['appointments'] as const,
  list: (api: ApiClient, view: string, query: AppointmentListQuery) =>
    queryOptions({ queryKey: [...appointmentQueries.lists(), view, query] as const, queryFn: () => listAppointments(api, query) }),
  /** Every appointment's details and extra details. */
  details: () => ['appointment'] as const,
  detail: (api: ApiClient, id: number) =>
    queryOptions({ queryKey: [...appointmentQueries.details(), id] as const, queryFn: () => fetchAppointment(api, id) }),
  extra: (api: ApiClient, id: number) =>
    queryOptions({ queryKey: [...appointmentQueries.details(), id, 'extra'] as const, queryFn: () => fetchAppointmentExtraDetails(api, id) }),
};

export const practitionerQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['practitioners', 'all'] as const, queryFn: () => fetchAllPractitioners(api) }),
};

export const appointmentTypeQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['appointment_types', 'all'] as const, queryFn: () => fetchAllAppointmentTypes(api) }),
};

export const businessLocationQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['business_locations', 'all'] as const, queryFn: () => fetchAllBusinessLocations(api) }),
};

/** The PMS's cancellation reasons: they do not change while the app is open. */
export const cancellationReasonQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['cancellation-reasons'] as const, queryFn: () => fetchCancellationReasons(api), staleTime: Infinity }),
};
