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
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
    });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
}
