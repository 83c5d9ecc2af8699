// The practitioners' working data (places, hours, break, skills, limits, time zone, colour), for the settings page.
// Under the practitioners' prefix: invalidating ['practitioners'] refreshes it with the reference list
// (../../appointments/queries.ts, practitionerQueries), which shows the same practitioners' names and colours.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchLeaveOfDay, fetchPractitionerLeave, fetchPractitionerSettings } from './api';

export const practitionerSettingsQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['practitioners', 'settings'] as const, queryFn: () => fetchPractitionerSettings(api) }),
};

/** A practitioner's leave, from today on; every practitioner's leave on a day. */
export const leaveQueries = {
  all: () => ['practitioner-leave'] as const,
  ofPractitioner: (api: ApiClient, practitionerId: number) =>
    queryOptions({ queryKey: [...leaveQueries.all(), practitionerId] as const, queryFn: () => fetchPractitionerLeave(api, practitionerId) }),
  ofDay: (api: ApiClient, date: string) =>
    queryOptions({ queryKey: [...leaveQueries.all(), 'day', date] as const, queryFn: () => fetchLeaveOfDay(api, date) }),
};
