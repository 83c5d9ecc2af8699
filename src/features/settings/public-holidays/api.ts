// The business's public holidays (care plans generate no visits on them): every staff member reads them, an ADMIN
// adds and removes them.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client';
import { ensureOk, unwrap } from '../../../api/errors';
import type { components } from '../../../api/schema';

export type PublicHoliday = components['schemas']['PublicHoliday'];

export const HOLIDAY_SAVE_ERROR = 'An error has occurred. Could not add the public holiday.';
export const HOLIDAY_DELETE_ERROR = 'An error has occurred. Could not remove the public holiday.';

export async function fetchPublicHolidays(api: ApiClient): Promise<PublicHoliday[]> {
  return unwrap(await api.GET('/public_holidays'), 'An error has occurred. Could not load the public holidays.').public_holidays;
}

export async function createPublicHoliday(api: ApiClient, holiday: { date: string; name: string }): Promise<PublicHoliday> {
  return unwrap(await api.POST('/public_holidays', { body: holiday }), HOLIDAY_SAVE_ERROR).public_holiday;
}

export async function deletePublicHoliday(api: ApiClient, id: number): Promise<void> {
  ensureOk(await api.DELETE('/public_holidays/{id}', { params: { path: { id } } }), HOLIDAY_DELETE_ERROR);
}

export const publicHolidayQueries = {
  all: (api: ApiClient) => queryOptions({ queryKey: ['public-holidays'] as const, queryFn: () => fetchPublicHolidays(api) }),
};
