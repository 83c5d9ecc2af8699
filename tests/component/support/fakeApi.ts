// The fake Rounds API of component and model tests: one msw server answering the shell's calls (login, the current
// user by token, the provider account, the config) like the real API, and a log of the requests it received.
// A test file adds its own answers with `server.use(...)`; the harness's useFakeApi() starts and resets it.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ProviderAccount, Role, User } from '../../../src/api/types';
import type { components } from '../../../src/api/schema';

type Subscription = components['schemas']['Subscription'];
import { makeUser } from '../../../src/testing/users';
import { dayIssuesBody } from './fixtures';

/** An msw path pattern for an API path: api('/clients/11'). */
export const api = (path: string) => `*/api${path}`;

export const PASSWORD = 'rounds-demo';
export const HELP_URL = 'https://help.rounds.test/';

export const usersByRole: Record<Role, User> = {
  ADMIN: makeUser('ADMIN'),
  REGULAR_USER: makeUser('REGULAR_USER'),
  PRACTITIONER: makeUser('PRACTITIONER'),
};

export const tokenFor = (user: User) => `token-${user.id}`;

export const activeAccount: ProviderAccount = {
  id: 1,
  provider: 'cliniko',
  status: 'ACTIVE',
  api_key_last4: '1234',
  last_error: null,
  connected_at: '2026-01-01T00:00:00Z',
};

const error = (status: number, message: string, code?: string) => HttpResponse.json({ message, ...(code ? { code } : {}) }, { status });

function userOf(request: Request): User | undefined {
  const token = request.headers.get('Authorization')?.replace(/^Bearer /, '');
  return Object.values(usersByRole).find((user) => tokenFor(user) === token);
}

/** A request the fake API received; `search` and `body` only when there are some. */
export interface ReceivedRequest {
  method: string;
  path: string;
  search?: string;
  body?: unknown;
  authorization: string | null;
}

/** Every request the app made to the API, in order, for asserting what was (not) called and sent. */
export const received: ReceivedRequest[] = [];

export const defaultHandlers = [
  http.post(api('/auth/login'), async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string };
    const user = Object.values(usersByRole).find((candidate) => candidate.email === body.email);
    if (!user || body.password !== PASSWORD) return error(401, 'Invalid email or password.');
    return HttpResponse.json({ token: tokenFor(user), expires_at: '2030-01-01T00:00:00Z', user });
  }),
  http.post(api('/auth/login_as'), async ({ request }) => {
    const { token } = (await request.json()) as { token: string };
    if (token !== 'one-time-admin') return error(401, 'This login link is invalid or has expired.');
    const user = usersByRole.ADMIN;
    return HttpResponse.json({ token: tokenFor(user), expires_at: '2030-01-01T00:00:00Z', user });
  }),
  http.post(api('/auth/logout'), () => new HttpResponse(null, { status: 204 })),
  http.get(api('/auth/user'), ({ request }) => {
    const user = userOf(request);
    return user ? HttpResponse.json({ user }) : error(401, 'Authentication required.');
  }),
  http.put(api('/auth/user'), async ({ request }) => {
    const user = userOf(request);
    if (!user) return error(401, 'Authentication required.');
    const changes = (await request.json()) as Partial<User> & { current_password?: string; new_password?: string };
    if (changes.new_password && changes.current_password !== PASSWORD) {
      return HttpResponse.json({ message: 'Current password is incorrect.', errors: ['current_password: Current password is incorrect.'] }, { status: 422 });
    }
    if (changes.email === 'taken@demo.test') {
      const taken = 'That email is already used by another account.';
      return HttpResponse.json({ message: taken, code: 'CONFLICT', errors: [`email: ${taken}`] }, { status: 409 });
    }
    if (changes.new_password?.startsWith('Password123')) {
      const problem = 'This password is one of the most common passwords, which attackers try first. Choose a less common one.';
      return HttpResponse.json({ message: `new_password: ${problem}`, errors: [`new_password: ${problem}`] }, { status: 422 });
    }
    const updated = { ...user, ...changes, full_name: `${changes.first_name ?? user.first_name} ${changes.last_name ?? user.last_name}` };
    delete (updated as Record<string, unknown>).current_password;
    delete (updated as Record<string, unknown>).new_password;
    // A password change ends every session and answers the caller's new one.
    return HttpResponse.json(changes.new_password
      ? { user: updated, session: { token: tokenFor(user), expires_at: '2030-01-01T00:00:00Z' } }
      : { user: updated });
  }),
  http.post(api('/auth/password_reset'), () =>
    HttpResponse.json({ message: 'If that address has an account, a reset link is on its way.' }, { status: 202 }),
  ),
  http.post(api('/auth/password_reset/confirm'), async ({ request }) => {
    const { token } = (await request.json()) as { token: string };
    return token === 'good-reset'
      ? HttpResponse.json({ message: 'Your password has been changed.' })
      : error(422, 'This reset link is invalid or has expired.');
  }),
  http.get(api('/provider_account/current'), ({ request }) =>
    userOf(request) ? HttpResponse.json({ provider_account: activeAccount }) : error(401, 'Authentication required.'),
  ),
  // No practitioner has leave (tests of leave give their own).
  http.get(api('/practitioner_leave'), ({ request }) => (userOf(request) ? HttpResponse.json({ leave: [] }) : error(401, 'Authentication required.'))),
  // The dashboard of a quiet day (tests of the dashboard give their own): nothing to fix, nothing ahead.
  http.get(api('/dashboard'), ({ request }) => {
    const user = userOf(request);
    if (!user) return error(401, 'Authentication required.');
    return HttpResponse.json(quietDashboard(user.role));
  }),
  // No open visits, care plans, absences or public holidays (tests of them give their own).
  http.get(api('/open_visits'), ({ request }) => (userOf(request) ? HttpResponse.json({ open_visits: [] }) : error(401, 'Authentication required.'))),
  http.get(api('/clients/:id/care_plans'), ({ request }) => (userOf(request) ? HttpResponse.json({ care_plans: [] }) : error(401, 'Authentication required.'))),
  http.get(api('/clients/:id/absences'), ({ request }) => (userOf(request) ? HttpResponse.json({ absences: [] }) : error(401, 'Authentication required.'))),
  http.get(api('/public_holidays'), ({ request }) => (userOf(request) ? HttpResponse.json({ public_holidays: [] }) : error(401, 'Authentication required.'))),
  // A day without problems by the rule book (tests of the banner and the marks give their own).
  http.get(api('/schedule/issues'), ({ request }) => {
    const user = userOf(request);
    if (!user) return error(401, 'Authentication required.');
    if (user.role === 'PRACTITIONER') return error(403, 'Your role does not allow this action.', 'FORBIDDEN');
    return HttpResponse.json(dayIssuesBody(new URL(request.url).searchParams.get('date') ?? ''));
  }),
  http.get(api('/subscription'), ({ request }) => {
    const user = userOf(request);
    if (!user) return error(401, 'Authentication required.');
    return user.role === 'ADMIN' ? HttpResponse.json({ subscription: subscriptionOf() }) : error(403, 'Your role does not allow this action.', 'FORBIDDEN');
  }),
  http.get(api('/config'), () => HttpResponse.json({ product_name: 'Rounds', google_maps_api_key: null, help_url: HELP_URL, map_style_url: null, map_attribution: null, road_geometry: false })),
];

/** GET /subscription's subscription: a business on its trial, two of ten seats used, unless overridden. */
export function subscriptionOf(overrides: Partial<Subscription> = {}): Subscription {
  return {
    plan: 'trial', status: 'trialing', trial_ends_at: '2026-12-20T14:00:00Z', past_due_since: null, grace_ends_at: null,
    payment_method_on_file: false, payment_required: false, seats: { used: 2, limit: 10 },
    usage: { month: '2026-11', visits_optimised: 148, imports: 12, emails_sent: 1234 },
    billing: { provider: 'offline', can_add_payment_method: false, can_open_portal: false },
    ...overrides,
  };
}

/** GET /dashboard on a day with nothing in it, for a role (Wednesday 25 November 2026 in Brisbane). */
export function quietDashboard(role: Role) {
  const week = (start: string, end: string) => ({ start, end, routed_days: 0, travel_seconds: 0, travel_metres: 0, visit_seconds: 0, working_seconds: 0, utilisation: null });
  return {
    role, today: '2026-11-25', tomorrow: '2026-11-26', business_time_zone: 'Australia/Brisbane',
    overview: role === 'PRACTITIONER' ? null : {
      visits_by_practitioner: [],
      outside_availability: [{ date: '2026-11-25', count: 0 }, { date: '2026-11-26', count: 0 }],
      travel_warnings: [{ date: '2026-11-25', count: 0 }, { date: '2026-11-26', count: 0 }],
      unrouted_days: [], unrouted_day_count: 0, visits_on_leave: { count: 0, days: [] }, stale_routes: [], clients_missing_address: { clients: 0, with_visit_this_week: 0 },
      last_import: null, last_export: null,
      this_week: week('2026-11-23', '2026-11-29'), last_week: week('2026-11-16', '2026-11-22'), travel: 'haversine',
      failed_reminders: { count: 0, clients: [] },
      overdue_visits: { date: '2026-11-25', count: 0, after_minutes: 15, alerts: [] },
    },
    practitioner_day: role === 'PRACTITIONER' ? { next_visit: null, today: { appointments: [], clients: [], practitioners: [], appointment_types: [] } } : null,
  };
}

export const server = setupServer(...defaultHandlers);

server.events.on('request:start', async ({ request }) => {
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/api/')) return;
  const entry: ReceivedRequest = { method: request.method, path: url.pathname, authorization: request.headers.get('Authorization') };
  if (url.search) entry.search = url.search;
  received.push(entry);
  if (request.method !== 'GET' && request.method !== 'DELETE') {
    const text = await request.clone().text();
    if (text) entry.body = JSON.parse(text);
  }
});
