// The practitioners settings page's calls: every practitioner with the working data Rounds keeps for routing, one
// practitioner's changes, the same working hours for several at once, and a practitioner's leave.
import type { ApiClient } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
export type PractitionerSettings = Schemas['PractitionerSettings'];
export type WorkingHours = Schemas['WorkingHours'];
export type WorkingDay = Schemas['WorkingDay'];
export type PractitionerBreak = Schemas['PractitionerBreak'];
export type PlaceChoice = Schemas['PlaceChoice'];
export type PractitionerChanges = NonNullable<operations['updatePractitioner']['requestBody']>['content']['application/json'];

export const PRACTITIONER_SAVE_ERROR = 'An error has occurred. Could not save the practitioner.';
export const WORKING_HOURS_SAVE_ERROR = 'An error has occurred. Could not set the working hours.';

/** Every practitioner, active and inactive (the page filters them), by name. */
export async function fetchPractitionerSettings(api: ApiClient): Promise<PractitionerSettings[]> {
  const result = await api.GET('/practitioners');
  return unwrap(result, 'An error has occurred. Could not load practitioners list.').practitioners;
}

export async function updatePractitioner(api: ApiClient, id: number, changes: PractitionerChanges): Promise<PractitionerSettings> {
  const result = await api.PATCH('/practitioners/{id}', { params: { path: { id } }, body: changes });
  return unwrap(result, PRACTITIONER_SAVE_ERROR).practitioner;
}

export type VisitsOutsideHours = operations['setPractitionersWorkingHours']['responses']['200']['content']['application/json']['visits_outside_hours'];

/** Sets `days` (weekday indices) of `workingHours` for every practitioner; their other days stay as they are. */
export async function setWorkingHours(api: ApiClient, practitionerIds: number[], workingHours: WorkingHours, days: number[]) {
  const result = await api.PUT('/practitioners/working_hours', { body: { practitioner_ids: practitionerIds, working_hours: workingHours, days } });
  return unwrap(result, WORKING_HOURS_SAVE_ERROR);
}

export type PractitionerLeave = Schemas['PractitionerLeave'];
export type LeaveInput = Schemas['PractitionerLeaveInput'];

export const LEAVE_SAVE_ERROR = 'An error has occurred. Could not save the leave.';
export const LEAVE_DELETE_ERROR = 'An error has occurred. Could not remove the leave.';

/** A practitioner's leave from today on (a year ahead), by start. */
export async function fetchPractitionerLeave(api: ApiClient, practitionerId: number): Promise<PractitionerLeave[]> {
  const result = await api.GET('/practitioner_leave', { params: { query: { practitioner_id: practitionerId } } });
  return unwrap(result, 'An error has occurred. Could not load the leave.').leave;
}

/** Every practitioner's leave overlapping a day (yyyy-MM-dd in the business's zone). */
export async function fetchLeaveOfDay(api: ApiClient, date: string): Promise<PractitionerLeave[]> {
  const result = await api.GET('/practitioner_leave', { params: { query: { start_date: date, end_date: date } } });
  return unwrap(result, 'An error has occurred. Could not load the leave.').leave;
}

export async function createLeave(api: ApiClient, input: LeaveInput): Promise<PractitionerLeave> {
  return unwrap(await api.POST('/practitioner_leave', { body: input }), LEAVE_SAVE_ERROR).leave;
}

/** "Unavailable from now": leave today from `from_time` (default now) to 23:59, for a coordinator re-planning the day. */
export async function markUnavailableToday(api: ApiClient, input: Schemas['PractitionerUnavailableToday']): Promise<PractitionerLeave> {
  return unwrap(await api.POST('/practitioner_leave/today', { body: input }), LEAVE_SAVE_ERROR).leave;
}

export async function updateLeave(api: ApiClient, id: number, input: LeaveInput): Promise<PractitionerLeave> {
  return unwrap(await api.PUT('/practitioner_leave/{id}', { params: { path: { id } }, body: input }), LEAVE_SAVE_ERROR).leave;
}

export async function deleteLeave(api: ApiClient, id: number): Promise<void> {
  const result = await api.DELETE('/practitioner_leave/{id}', { params: { path: { id } } });
  if (!result.response.ok) throw new ApiError(result.response.status, result.error, LEAVE_DELETE_ERROR);
}
