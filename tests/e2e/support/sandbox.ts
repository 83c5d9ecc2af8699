// Reading the product's in-process Cliniko sandbox over HTTP, as Cliniko's API is read: the demo's key in Basic auth.
// The product starts the sandbox on SANDBOX_PORT when the test pins one (see startProduct's env).
import { SANDBOX_DEMO_API_KEY } from '../../../server/src/pms/sandbox';

export interface SandboxAppointment {
  id: string;
  starts_at: string;
  ends_at: string;
  practitioner: { links: { self: string } };
}

export interface SandboxPractitioner { id: string; first_name: string; last_name: string }

/** The sandbox's API root for a pinned port: http://127.0.0.1:<port>/v1. */
export const sandboxApiUrl = (port: number) => `http://127.0.0.1:${port}/v1`;

/** As the product calls Cliniko: the demo's key in Basic auth, JSON, and a User-Agent naming the caller. */
const SANDBOX_HEADERS = {
  Authorization: `Basic ${Buffer.from(`${SANDBOX_DEMO_API_KEY}:`).toString('base64')}`,
  Accept: 'application/json',
  'User-Agent': 'Rounds e2e (e2e@rounds.test)',
};

/** GET on the sandbox's API (path under /v1), failing on anything but 200. */
export async function sandboxGet<T>(apiUrl: string, path: string): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    headers: SANDBOX_HEADERS,
  });
  if (response.status !== 200) throw new Error(`sandbox GET ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The id at the end of a sandbox link (…/practitioners/123 → 123). */
export const idOfLink = (link: string) => link.slice(link.lastIndexOf('/') + 1);

/** PATCH on the sandbox's API (path under /v1), as the export writes a visit's new time; fails on anything but 200. */
export async function sandboxPatch<T>(apiUrl: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: 'PATCH',
    headers: { ...SANDBOX_HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`sandbox PATCH ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
