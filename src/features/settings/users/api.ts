// The calls of the users page (ADMIN): GET/POST /users, PATCH /users/{id}, POST /users/{id}/deactivate|reactivate|resend_invitation.
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../api/schema';
import { unwrap } from '../../../api/errors';

export type BusinessUser = components['schemas']['BusinessUser'];
export type UserStatus = components['schemas']['UserStatus'];
export type Role = components['schemas']['Role'];
export interface UserFilters { search: string; role: Role | null; status: UserStatus | null }
export interface InviteInput {
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  associated_practitioner_ids: number[];
}
export type UserChanges = Partial<Pick<InviteInput, 'role' | 'associated_practitioner_ids'>>;

export const LOAD_ERROR = 'An error has occurred. Could not load the users.';
export const INVITE_ERROR = 'An error has occurred. Could not invite the user.';
export const SAVE_ERROR = 'An error has occurred. Could not save the user.';
export const DEACTIVATE_ERROR = 'An error has occurred. Could not deactivate the user.';
export const REACTIVATE_ERROR = 'An error has occurred. Could not reactivate the user.';
export const RESEND_ERROR = 'An error has occurred. Could not send the invitation again.';

export async function fetchUsers(api: ApiClient, filters: UserFilters): Promise<BusinessUser[]> {
  const query = {
    ...(filters.search.trim() ? { search: filters.search.trim() } : {}),
    ...(filters.role ? { role: filters.role } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
  return unwrap(await api.GET('/users', { params: { query } }), LOAD_ERROR).users;
}

export async function inviteUser(api: ApiClient, input: InviteInput): Promise<BusinessUser> {
  return unwrap(await api.POST('/users', { body: input }), INVITE_ERROR).user;
}

export async function updateUser(api: ApiClient, id: number, changes: UserChanges): Promise<BusinessUser> {
  return unwrap(await api.PATCH('/users/{id}', { params: { path: { id } }, body: changes }), SAVE_ERROR).user;
}

export async function deactivateUser(api: ApiClient, id: number): Promise<BusinessUser> {
  return unwrap(await api.POST('/users/{id}/deactivate', { params: { path: { id } } }), DEACTIVATE_ERROR).user;
}

export async function reactivateUser(api: ApiClient, id: number): Promise<BusinessUser> {
  return unwrap(await api.POST('/users/{id}/reactivate', { params: { path: { id } } }), REACTIVATE_ERROR).user;
}

export async function resendInvitation(api: ApiClient, id: number): Promise<BusinessUser> {
  return unwrap(await api.POST('/users/{id}/resend_invitation', { params: { path: { id } } }), RESEND_ERROR).user;
}
