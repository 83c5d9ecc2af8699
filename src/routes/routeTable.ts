// Every route of the product with its page: the router reads from here. The routes' data (paths, titles,
// roles, sidebar) lives in the leaf module routeMeta.ts, which pages may import; pages never import this file.
import { lazy } from 'react';
import { findRouteMeta, routeMetas } from './routeMeta';
import type { AppRoute } from './routeTypes';

const ComingSoonPage = lazy(() => import('../views/common/ComingSoonPage'));

/** The page of each route that has one; every other route shows the coming-soon placeholder. */
const pages: Readonly<Record<string, AppRoute['component']>> = {
  '/dashboard': lazy(() => import('../views/dashboard/DashboardPage')),
  '/appointments': lazy(() => import('../views/appointments/AppointmentsPage')),
  '/clients': lazy(() => import('../views/clients/ClientsPage')),
  // Issue 4 (sync): imports, exports and the sync settings pages.
  '/imports': lazy(() => import('../views/imports/ImportsPage')),
  '/imports/add': lazy(() => import('../views/imports/ImportAddPage')),
  '/exports': lazy(() => import('../views/exports/ExportsPage')),
  '/exports/add': lazy(() => import('../views/exports/ExportAddPage')),
  '/settings': lazy(() => import('../views/settings/SettingsIndexPage')),
  '/settings/account-setup': lazy(() => import('../views/settings/account-setup/AccountSetupPage')),
  '/settings/practitioners': lazy(() => import('../views/settings/practitioners/PractitionersSettingsPage')),
  '/settings/tags': lazy(() => import('../views/settings/tags/TagsSettingsPage')),
  '/settings/provider-account': lazy(() => import('../views/settings/provider-account/ProviderAccountPage')),
  '/settings/provider-account/add': lazy(() => import('../views/settings/provider-account/AddProviderAccountPage')),
  '/settings/sync-settings': lazy(() => import('../views/settings/sync-settings/SyncSettingsPage')),
  '/settings/appointment-types': lazy(() => import('../views/settings/appointment-types/AppointmentTypesPage')),
  '/settings/my-account': lazy(() => import('../views/settings/MyAccountPage')),
  '/help': lazy(() => import('../views/help/HelpPage')),
  '/login': lazy(() => import('../views/auth/LoginPage')),
  '/login-as': lazy(() => import('../views/auth/LoginAsPage')),
  '/reset-password': lazy(() => import('../views/auth/ResetPasswordPage')),
  '/client/update-availability': lazy(() => import('../views/public/UpdateAvailabilityPage')),
  '/errors/404': lazy(() => import('../views/errors/NotFoundPage')),
  '/errors/500': lazy(() => import('../views/errors/ServerErrorPage')),
};

export const routes: readonly AppRoute[] = routeMetas.map((meta) => ({ ...meta, component: pages[meta.path] ?? ComingSoonPage }));

export const notFoundRoute: AppRoute = routes.find((route) => route.path === '/errors/404')!;

export const sidebarRoutes = routes.filter((route) => route.sidebar !== undefined);

export function findRoute(path: string): AppRoute | undefined {
  const meta = findRouteMeta(path);
  return meta && routes.find((route) => route.path === meta.path);
}
