// The calls of the clients area and the client details modal, typed by the contract; failures are
// thrown as ApiError carrying the server's message (or the fallbacks below).
import type { ApiClient } from '../../api/client';
import { ensureOk, unwrap } from '../../api/errors';
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
export type Client = Schemas['Client'];
export type ClientListItem = Schemas['ClientListItem'];
export type Tag = Schemas['Tag'];
export type AvailabilityEntry = Schemas['AvailabilityEntry'];
export type ClientListQuery = NonNullable<operations['listClients']['parameters']['query']>;

export const CLIENT_LOAD_ERROR = 'An error has occurred while fetching client details';
export const GENERIC_ERROR = 'An error has occurred';
export const AVAILABILITY_REQUEST_ERROR = 'An error has occurred. Could not send availability request.';
export const AVAILABILITY_REQUEST_SENT = 'The availability request has been scheduled to send to client.';
export const AVAILABILITY_REQUEST_CONFIRMATION = 'Are you sure you want to send an availability request email to this client?';
export const TAGS_UPDATED = 'Tags have been updated.';
export const REMINDERS_ON = 'Appointment reminders turned on for this client.';
export const REMINDERS_OFF = 'Appointment reminders turned off for this client.';
export const PRACTITIONERS_UPDATED = 'Preferred and excluded practitioners have been updated.';

export async function listClients(api: ApiClient, query: ClientListQuery) {
  const result = await api.GET('/clients', { params: { query } });
  return unwrap(result, 'An error has occurred. Could not load clients list.');
}

export async function fetchClient(api: ApiClient, id: number): Promise<Client> {
  const result = await api.GET('/clients/{id}', { params: { path: { id } } });
  return unwrap(result, CLIENT_LOAD_ERROR).client;
}

export async function sendAvailabilityRequest(api: ApiClient, id: number): Promise<void> {
  const result = await api.POST('/clients/{id}/send_availability_request', { params: { path: { id } } });
  ensureOk(result, AVAILABILITY_REQUEST_ERROR);
}

export async function fetchAllTags(api: ApiClient): Promise<Tag[]> {
  const result = await api.GET('/tags/all');
  return unwrap(result, GENERIC_ERROR).tags;
}

export async function saveClientTags(api: ApiClient, id: number, tagIds: number[]): Promise<Tag[]> {
  const result = await api.PUT('/clients/{id}/update_tags', { params: { path: { id } }, body: { tag_ids: tagIds } });
  return unwrap(result, GENERIC_ERROR).tags;
}

export async function saveClientReminders(api: ApiClient, id: number, enabled: boolean): Promise<Client> {
  const result = await api.PUT('/clients/{id}/update_reminders', { params: { path: { id } }, body: { reminders_enabled: enabled } });
  return unwrap(result, GENERIC_ERROR).client;
}

export async function saveClientPractitioners(
  api: ApiClient, id: number, choice: { preferred_practitioner_ids: number[]; excluded_practitioner_ids: number[] },
): Promise<Client> {
  const result = await api.PUT('/clients/{id}/update_practitioners', { params: { path: { id } }, body: choice });
  return unwrap(result, GENERIC_ERROR).client;
}

/** Tags show black when they have no colour. */
export const tagColor = (tag: Pick<Tag, 'color'>) => (tag.color && tag.color.trim() !== '' ? tag.color : '#000000');
