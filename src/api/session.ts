// The app's one API client and the running app's query cache. Machines' default effects call the client and read
// server data through the cache (one key per piece of data, the factories in ./queries.ts and the features'); the
// running app binds its session (token source, 401 handling) and its QueryClient once its actors exist.
import type { QueryClient } from '@tanstack/react-query';
import { createApiClient, type SessionHooks } from './client';

const anonymous: SessionHooks = { getToken: () => null, onUnauthorized: () => {} };
let current: SessionHooks = anonymous;
let cache: QueryClient | null = null;

export function bindSession(hooks: SessionHooks, queryClient: QueryClient): () => void {
  current = hooks;
  cache = queryClient;
  return () => {
    if (current !== hooks) return;
    current = anonymous;
    cache = null;
  };
}

export const apiClient = createApiClient({
  getToken: () => current.getToken(),
  onUnauthorized: (reason) => current.onUnauthorized(reason),
  onForbidden: () => current.onForbidden?.(),
  onAccountCode: (code) => current.onAccountCode?.(code),
});

/** The running app's query cache (createAppServices binds it). */
export function sessionQueryClient(): QueryClient {
  if (!cache) throw new Error('No running app: createAppServices() binds the query cache that machines read through.');
  return cache;
}
