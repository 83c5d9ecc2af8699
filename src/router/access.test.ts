import { describe, expect, it } from 'vitest';
import { decideAccess, deniedMessage, landingAfterLogin, loginPathFor } from './access';
import { pageTitle } from '../app/product';
import { findRoute, routes, sidebarRoutes } from './routeTable';

const route = (path: string) => {
  const found = findRoute(path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};

describe('route access', () => {
  it('sends unauthenticated visitors of protected routes to /login', () => {
    expect(decideAccess(route('/dashboard'), { authenticated: false, role: null })).toEqual({ kind: 'redirect', to: '/login' });
    expect(decideAccess(route('/reports'), { authenticated: false, role: null })).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('sends an authenticated user without the role to /dashboard', () => {
    expect(decideAccess(route('/reports/activity'), { authenticated: true, role: 'REGULAR_USER' })).toEqual({ kind: 'redirect', to: '/dashboard', denied: { roles: ['ADMIN'] } });
    expect(decideAccess(route('/search'), { authenticated: true, role: 'PRACTITIONER' })).toEqual({ kind: 'redirect', to: '/dashboard', denied: { roles: ['ADMIN', 'REGULAR_USER'] } });
    expect(decideAccess(route('/search'), { authenticated: true, role: 'REGULAR_USER' })).toEqual({ kind: 'allow' });
  });

  it('lets anyone authenticated open the unrestricted pages', () => {
    for (const path of ['/dashboard', '/appointments', '/clients', '/settings/appointment-types', '/settings/my-account']) {
      expect(decideAccess(route(path), { authenticated: true, role: 'PRACTITIONER' })).toEqual({ kind: 'allow' });
    }
  });

  it('waits for the user before deciding a role-restricted route', () => {
    expect(decideAccess(route('/settings'), { authenticated: true, role: null })).toEqual({ kind: 'wait' });
  });

  it('never guards the outside-layout pages', () => {
    for (const path of ['/login', '/login-as', '/reset-password', '/client/update-availability', '/client/reminders/unsubscribe', '/errors/404', '/errors/500']) {
      expect(route(path).inLayout).toBe(false);
      expect(decideAccess(route(path), { authenticated: false, role: null })).toEqual({ kind: 'allow' });
    }
  });
});

describe('the word a user sent away reads', () => {
  it('names the account the page needs and where the page is', () => {
    expect(deniedMessage(route('/settings/sync-settings'), { roles: ['ADMIN'] })).toBe('You need an administrator account to open Settings → Sync settings.');
    expect(deniedMessage(route('/reports'), { roles: ['ADMIN'] })).toBe('You need an administrator account to open Reports.');
    expect(deniedMessage(route('/search'), { roles: ['ADMIN', 'REGULAR_USER'] })).toBe('Nearby search is for administrators and staff: practitioner accounts cannot open it.');
  });
});

describe('route table', () => {
  it('holds every route once', () => {
    const paths = routes.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(44); // the product's 40 routes (Open visits and Public holidays the last added), the user guide at /help, the invitation page at /accept-invitation, /payment-required and the reminders' unsubscribe page
  });

  it('opens only the pages that explain or fix it while the business needs a payment method', () => {
    const open = routes.filter((entry) => entry.requiresAuth && entry.openWhilePaymentRequired).map((entry) => entry.path).sort();
    expect(open).toEqual(['/help', '/payment-required', '/settings/my-account', '/settings/subscription']);
    const owing = { authenticated: true, role: 'REGULAR_USER' as const, paymentRequired: true };
    expect(decideAccess(route('/clients'), owing)).toEqual({ kind: 'redirect', to: '/payment-required' });
    expect(decideAccess(route('/settings/my-account'), owing)).toEqual({ kind: 'allow' });
    // A page the role may not open still says so first: no subscription page for staff.
    expect(decideAccess(route('/settings/subscription'), owing)).toMatchObject({ kind: 'redirect', to: '/dashboard' });
    expect(decideAccess(route('/login'), owing)).toEqual({ kind: 'allow' });
  });

  it('lists the seven sidebar items in their order', () => {
    expect(sidebarRoutes.map((entry) => entry.sidebar?.label)).toEqual(['Dashboard', 'Appointments', 'Open visits', 'Nearby search', 'Clients', 'Reports', 'Settings']);
  });

  it('titles pages "{title} - Rounds", or "Rounds" alone', () => {
    expect(pageTitle('Nearby search')).toBe('Nearby search - Rounds');
    expect(pageTitle(undefined)).toBe('Rounds');
    expect(route('/settings/subscription').title).toBe('Subscription info');
    expect(route('/settings/business-account').title).toBe('Account settings');
  });

  it('after login, lands on the page first asked for when the role may open it, else the dashboard', () => {
    expect(loginPathFor('/reports/activity?kinds=user')).toBe('/login?next=%2Freports%2Factivity%3Fkinds%3Duser');
    expect(loginPathFor('/dashboard')).toBe('/login');
    expect(landingAfterLogin('/reports/activity?kinds=user', 'ADMIN')).toBe('/reports/activity?kinds=user');
    expect(landingAfterLogin('/reports/activity', 'REGULAR_USER')).toBe('/dashboard');
    expect(landingAfterLogin('/clients', 'PRACTITIONER')).toBe('/clients');
    // Only the app's own pages behind a login: never another site, a public page or an unknown path.
    for (const next of ['//evil.test/x', 'https://evil.test', '/login', '/accept-invitation?token=x', '/nope', null]) {
      expect(landingAfterLogin(next, 'ADMIN')).toBe('/dashboard');
    }
  });

  it('finds a route with a trailing slash', () => {
    expect(findRoute('/clients/')?.path).toBe('/clients');
    expect(findRoute('/nope')).toBeUndefined();
  });
});
