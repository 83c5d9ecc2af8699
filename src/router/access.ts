import type { Role } from '../api/types';
import { findRouteMeta } from './routeMeta';
import type { RouteMeta } from './routeTypes';

export type AccessDecision =
  | { kind: 'allow' }
  /** Authenticated, but the role is not known yet (the user is still loading). */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string; denied?: DeniedReason };

/** Why a signed-in user was sent away: the page needs one of these roles. */
export interface DeniedReason {
  roles: readonly Role[];
}

export interface Viewer {
  authenticated: boolean;
  role: Role | null;
  /** The business needs a payment method: only the pages that explain or fix it open. */
  paymentRequired?: boolean;
}

/** Where a user goes while payment is required (the start-up machine's PAYMENT_REQUIRED_PATH). */
export const PAYMENT_REQUIRED_PAGE = '/payment-required';

/** A protected route: unauthenticated → login; authenticated without the role → dashboard. */
export function decideAccess(route: Pick<RouteMeta, 'requiresAuth' | 'roles' | 'openWhilePaymentRequired'>, viewer: Viewer): AccessDecision {
  if (!route.requiresAuth) return { kind: 'allow' };
  if (!viewer.authenticated) return { kind: 'redirect', to: '/login' };
  if (viewer.paymentRequired && !route.openWhilePaymentRequired) return { kind: 'redirect', to: PAYMENT_REQUIRED_PAGE };
  if (!route.roles) return { kind: 'allow' };
  if (viewer.role === null) return { kind: 'wait' };
  return route.roles.includes(viewer.role) ? { kind: 'allow' } : { kind: 'redirect', to: '/dashboard', denied: { roles: route.roles } };
}

/** Where a page sits, as a user finds it: "Settings → Sync settings", or the page's title. */
function placeOf(route: Pick<RouteMeta, 'path' | 'title'>): string {
  return route.path.startsWith('/settings/') ? `Settings → ${route.title}` : route.title;
}

/** What a user sent away from a page reads: which account the page needs. */
export function deniedMessage(route: Pick<RouteMeta, 'path' | 'title'>, denied: DeniedReason): string {
  const place = placeOf(route);
  if (denied.roles.length === 1 && denied.roles[0] === 'ADMIN') return `You need an administrator account to open ${place}.`;
  if (!denied.roles.includes('PRACTITIONER')) return `${place} is for administrators and staff: practitioner accounts cannot open it.`;
  return `Your account cannot open ${place}.`;
}

export function canSee(route: Pick<RouteMeta, 'requiresAuth' | 'roles'>, viewer: Viewer): boolean {
  return decideAccess(route, viewer).kind === 'allow';
}

export const HOME_PATH = '/dashboard';

/** The login page, remembering the in-app page a signed-out visitor asked for (with its query) to return to after. */
export function loginPathFor(requested: string): string {
  const page = requested.split('?')[0];
  return page === '/' || page === HOME_PATH ? '/login' : `/login?next=${encodeURIComponent(requested)}`;
}

/**
 * Where a user lands once logged in: the page they first asked for (`next`, an in-app path with its query) when it is
 * a page of the layout their role may open, else the dashboard.
 */
export function landingAfterLogin(next: string | null, role: Role | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return HOME_PATH;
  const route = findRouteMeta(next.split(/[?#]/)[0]);
  if (!route || !route.inLayout || !route.requiresAuth) return HOME_PATH;
  return decideAccess(route, { authenticated: true, role }).kind === 'allow' ? next : HOME_PATH;
}
