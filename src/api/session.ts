// The app's one API client. Machines call it in their default effects; the running app binds
// the session (token source, 401 handling) once its actors exist.
import { createApiClient, type SessionHooks } from './client';

const anonymous: SessionHooks = { getToken: () => null, onUnauthorized: () => {} };
let current: SessionHooks = anonymous;

export function bindSession(hooks: SessionHooks): () => void {
  current = hooks;
  return () => {
    if (current === hooks) current = anonymous;
  };
}

export const apiClient = createApiClient({
  getToken: () => current.getToken(),
  onUnauthorized: () => current.onUnauthorized(),
  onAccountCode: (code) => current.onAccountCode?.(code),
});
