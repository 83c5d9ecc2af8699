// The shell's calls, one function each: typed by the contract, failures thrown as ApiError.
import type { ApiClient } from './client';
import { ApiError, unwrap } from './errors';
import type { AppConfig, BusinessChoice, Credentials, ProviderAccount, Session, User } from './types';

export async function logIn(client: ApiClient, credentials: Credentials): Promise<Session> {
  const result = await client.POST('/auth/login', { body: credentials });
  return unwrap(result, 'An error has occurred. Could not log in.');
}

/** The businesses to choose from when a login answered that its email and password open several, else undefined. */
export function businessChoicesOf(error: unknown): BusinessChoice[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'CHOOSE_BUSINESS') return undefined;
  return (error.body as { businesses: BusinessChoice[] }).businesses;
}

export async function exchangeLoginAsToken(client: ApiClient, token: string): Promise<Session> {
  const result = await client.POST('/auth/login_as', { body: { token } });
  return unwrap(result, 'This login link is invalid or has expired.');
}

export async function fetchCurrentUser(client: ApiClient): Promise<User> {
  const result = await client.GET('/auth/user');
  return unwrap(result, 'An error has occurred. Could not load your account.').user;
}

export interface AccountChanges {
  first_name?: string;
  last_name?: string;
  email?: string;
  current_password?: string;
  new_password?: string;
}

/** The account; after a password change also the caller's new session, whose token replaces the one sent. */
export interface AccountUpdate {
  user: User;
  session?: { token: string; expires_at: string };
}

export async function updateCurrentUser(client: ApiClient, changes: AccountChanges): Promise<AccountUpdate> {
  const result = await client.PUT('/auth/user', { body: changes });
  return unwrap(result, 'An error has occurred. Could not update your account.');
}

/** Revokes the given token server-side (204). The token is passed explicitly because the
 * session is already cleared locally by the time this request is sent. */
export async function revokeSession(client: ApiClient, token: string): Promise<void> {
  const result = await client.POST('/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  if (!result.response.ok) throw new ApiError(result.response.status, result.error, 'Could not log out.');
}

export async function requestPasswordReset(client: ApiClient, email: string): Promise<string> {
  const result = await client.POST('/auth/password_reset', { body: { email } });
  return unwrap(result, 'An error has occurred. Could not request a password reset.').message;
}

export async function confirmPasswordReset(client: ApiClient, token: string, password: string): Promise<string> {
  const result = await client.POST('/auth/password_reset/confirm', { body: { token, password } });
  return unwrap(result, 'An error has occurred. Could not set the new password.').message;
}

export async function fetchCurrentProviderAccount(client: ApiClient): Promise<ProviderAccount | null> {
  const result = await client.GET('/provider_account/current');
  return unwrap(result, 'An error has occurred. Could not load the provider account.').provider_account;
}

export async function fetchConfig(client: ApiClient): Promise<AppConfig> {
  const result = await client.GET('/config');
  return unwrap(result, 'An error has occurred. Could not load the configuration.');
}

export interface Invitation { email: string; first_name: string; business_name: string }

/** Who an invitation link is for; an ApiError whose code says why a link no longer works (INVITATION_USED, …). */
export async function checkInvitation(client: ApiClient, token: string): Promise<Invitation> {
  return unwrap(await client.POST('/auth/invitation', { body: { token } }), 'An error has occurred. Could not check the invitation.');
}

/** Sets the invited user's password; answers the email they log in with. */
export async function acceptInvitation(client: ApiClient, token: string, password: string): Promise<string> {
  return unwrap(await client.POST('/auth/invitation/accept', { body: { token, password } }), 'An error has occurred. Could not set your password.').email;
}
