// Logging out ends the session on the server too. Without signal that call cannot be made: the session's token is kept
// here and the call made once the network is back (the 'online' event, or the app's next start), so a phone logged out
// offline does not leave its session valid for days. The calls go without the app's session hooks: the answer about
// an old session (401 once it has expired) must never end the session of whoever is logged in now.
import { createApiClient } from '../api/client';
import { revokeSession } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { readStored, removeStored, writeStored } from './storage';

const STORAGE_KEY = 'rounds.auth.pendingLogouts';

const isTokenList = (value: unknown): value is string[] => Array.isArray(value) && value.every((token) => typeof token === 'string');
const pending = () => readStored(STORAGE_KEY, isTokenList) ?? [];

function setPending(tokens: readonly string[]): void {
  if (tokens.length) writeStored(STORAGE_KEY, tokens);
  else removeStored(STORAGE_KEY);
}

const outsideTheSession = createApiClient({ getToken: () => null, onUnauthorized: () => {} });

/** Worth calling again: no network, a time-out, the server or a proxy down. Any other answer is final (401: already ended). */
const isUnreachable = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;

/** Ends the session on the server now, or once the network is back. */
export async function endSessionOnServer(token: string): Promise<void> {
  if (!pending().includes(token)) setPending([...pending(), token]);
  try {
    await revokeSession(outsideTheSession, token);
  } catch (error) {
    if (isUnreachable(error)) return;
  }
  setPending(pending().filter((kept) => kept !== token));
}

/** Ends the sessions logged out without signal. */
export async function endPendingSessions(): Promise<void> {
  await Promise.all(pending().map(endSessionOnServer));
}
