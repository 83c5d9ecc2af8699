import { describe, expect, it } from 'vitest';
import { decideAccess, deniedMessage } from './access';
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
    expect(paths).toHaveLength(39); // the product's 37 routes, the user guide at /help and the reminders' unsubscribe page
  });

  it('lists the six sidebar items in their order', () => {
    expect(sidebarRoutes.map((entry) => entry.sidebar?.label)).toEqual(['Dashboard', 'Appointments', 'Nearby search', 'Clients', 'Reports', 'Settings']);
  });

  it('titles pages "{title} - Rounds", or "Rounds" alone', () => {
    expect(pageTitle('Nearby search')).toBe('Nearby search - Rounds');
    expect(pageTitle(undefined)).toBe('Rounds');
    expect(route('/settings/subscription').title).toBe('Subscription info');
    expect(route('/settings/business-account').title).toBe('Account settings');
  });

  it('finds a route with a trailing slash', () => {
    expect(findRoute('/clients/')?.path).toBe('/clients');
    expect(findRoute('/nope')).toBeUndefined();
  });
});
