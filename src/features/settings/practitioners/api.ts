// The practitioners settings page's calls: every practitioner with the working data Rounds keeps for routing, one
// practitioner's changes, and the same working hours for several at once.
import type { ApiClient } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { components, operations } from '../../../api/schema';

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
