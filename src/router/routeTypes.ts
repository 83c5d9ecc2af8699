// What a route is, as data. A leaf module: it imports no page, so pages may import it.
import type { ComponentType, LazyExoticComponent } from 'react';
import type { Role } from '../api/types';

export type SidebarIcon = 'dashboard' | 'appointments' | 'openVisits' | 'search' | 'clients' | 'reports' | 'settings';

/** Everything about a route except the page that renders it. */
export interface RouteMeta {
  path: string;
  /** Shown in the tab as "{title} - Rounds" and as the page heading. */
  title: string;
  /** Who may open it; undefined means any authenticated user (when `requiresAuth`). */
  roles?: readonly Role[];
  requiresAuth: boolean;
  inLayout: boolean;
  /** One line saying what the page is for (the settings index shows it on the page's card). */
  description?: string;
  sidebar?: { label: string; icon: SidebarIcon };
  /** Still opens while the business needs a payment method (40003): the pages that explain or fix it. */
  openWhilePaymentRequired?: boolean;
}

export interface RoutePageProps {
  route: AppRoute;
}

export interface AppRoute extends RouteMeta {
  component: LazyExoticComponent<ComponentType<RoutePageProps>>;
}
