import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { QueryClient } from '@tanstack/react-query';
import type { paths } from './schema';
import { ACCOUNT_CODES, errorCodeFrom, errorMessageFrom } from './errors';

export type ApiClient = Client<paths>;

export interface SessionHooks {
  /** The bearer token of the current session, or null when logged out. */
  getToken: () => string | null;
  /** A request that carried a token was answered 401: the session is gone; `reason` says why when the server said (deactivated). */
  onUnauthorized: (reason?: string) => void;
  /** A request that carried a token was answered 403: the user's role may have changed since it was loaded. */
  onForbidden?: () => void;
  /** Any response carried an account code, e.g. the provider account is not set up (PROVIDER_ACCOUNT_NOT_SETUP). */
  onAccountCode?: (code: string) => void;
}

const WATCHED_CODES = new Set<string>([
  ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_ACTIVE,
  ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_SETUP,
  ACCOUNT_CODES.PAYMENT_METHOD_REQUIRED,
]);

function sessionMiddleware(hooks: SessionHooks): Middleware {
  return {
    onRequest({ request }) {
      const token = hooks.getToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
    async onResponse({ request, response }) {
      const body: unknown = !response.ok && isJson(response) ? await response.clone().json().catch(() => null) : null;
      const code = errorCodeFrom(body);
      // A 401 to an anonymous call (a wrong password at login) is not an expired session.
      if (response.status === 401 && request.headers.has('Authorization')) {
        hooks.onUnauthorized(code === ACCOUNT_CODES.USER_NOT_ACTIVE ? errorMessageFrom(body) : undefined);
      }
      if (response.status === 403 && request.headers.has('Authorization')) hooks.onForbidden?.();
      if (code && hooks.onAccountCode && WATCHED_CODES.has(code)) hooks.onAccountCode(code);
      return response;
    },
  };
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('json');
}

/** Same-origin base: the API and the SPA are served from one host (Vite proxies /api in dev). */
const API_PREFIX = '/api';
export function defaultBaseUrl(): string {
  return (typeof window !== 'undefined' ? window.location.origin : '') + API_PREFIX;
}

export function createApiClient(
  hooks: SessionHooks,
  options: { baseUrl?: string; fetch?: (request: Request) => Promise<Response> } = {},
): ApiClient {
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl ?? defaultBaseUrl(),
    // Resolve the global at call time so test interceptors installed later still apply.
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  client.use(sessionMiddleware(hooks));
  return client;
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    },
  });
}
