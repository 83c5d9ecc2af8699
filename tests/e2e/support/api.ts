// The product's API as a demo user, for choosing test data and checking what the browser did.
import { DEMO_PASSWORD } from './browser';

export type Api = <T>(path: string, init?: RequestInit) => Promise<T>;

export async function apiAs(productUrl: string, email: string): Promise<Api> {
  const login = await fetch(`${productUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`logging in as ${email} answered ${login.status}`);
  const { token } = (await login.json()) as { token: string };
  return async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${productUrl}/api${path}`, {
      ...init,
      // A body is JSON; a request without one (a DELETE) says no content type, as the app's client does.
      headers: { Authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}
