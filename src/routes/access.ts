import type { Role } from '../api/types';
import type { AppRoute } from './routeTable';

export type AccessDecision =
  | { kind: 'allow' }
  /** Authenticated, but the role is not known yet (the user is still loading). */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string };

export interface Viewer {
  authenticated: boolean;
  role: Role | null;
}

/** Spec section 4: unauthenticated → login; authenticated without the role → dashboard. */
export function decideAccess(route: Pick<AppRoute, 'requiresAuth' | 'roles'>, viewer: Viewer): AccessDecision {
  if (!route.requiresAuth) return { kind: 'allow' };
  if (!viewer.authenticated) return { kind: 'redirect', to: '/login' };
  if (!route.roles) return { kind: 'allow' };
  if (viewer.role === null) return { kind: 'wait' };
  return route.roles.includes(viewer.role) ? { kind: 'allow' } : { kind: 'redirect', to: '/dashboard' };
}

export function canSee(route: Pick<AppRoute, 'requiresAuth' | 'roles'>, viewer: Viewer): boolean {
  return decideAccess(route, viewer).kind === 'allow';
}
