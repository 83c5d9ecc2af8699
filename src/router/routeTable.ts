// Every route of the product with its page: the router reads from here. The routes' data (paths, titles,
// roles, sidebar) lives in the leaf module routeMeta.ts, which pages may import; pages never import this file.
import { lazy } from 'react';
import { findRouteMeta, routeMetas } from './routeMeta';
import type { AppRoute } from './routeTypes';

/** The page of every route in routeMeta.ts. */
const pages: Readonly<Record<string, AppRoute['component']>> = {
  '/dashboard': lazy(() => import('../features/dashboard/DashboardPage')),
  '/appointments': lazy(() => import('../features/schedule/AppointmentsPage')),
  '/clients': lazy(() => import('../features/clients/ClientsPage')),
  '/open-visits': lazy(() => import('../features/care/OpenVisitsPage')),
  // Reports.
  '/reports': lazy(() => import('../features/reports/ReportsIndexPage')),
  '/reports/clients-missing-address': lazy(() => import('../features/reports/ClientsMissingAddressReport')),
  '/reports/practitioner-travel': lazy(() => import('../features/reports/PractitionerTravelReport')),
  '/reports/client-travel': lazy(() => import('../features/reports/ClientTravelReport')),
  '/reports/activity': lazy(() => import('../features/reports/ActivityReport')),
  '/reports/appointments': lazy(() => import('../features/reports/AppointmentsReport')),
  '/reports/practitioner-performance': lazy(() => import('../features/reports/PractitionerPerformanceReport')),
  '/reports/visit-verification': lazy(() => import('../features/reports/VisitVerificationReport')),
  '/reports/client-geography': lazy(() => import('../features/reports/ClientGeographyReport')),
  // Search, then imports, exports and the sync settings pages.
  '/search': lazy(() => import('../features/search/SearchPage')),
  '/imports': lazy(() => import('../features/sync/imports/ImportsPage')),
  '/imports/add': lazy(() => import('../features/sync/imports/ImportAddPage')),
  '/exports': lazy(() => import('../features/sync/exports/ExportsPage')),
  '/exports/add': lazy(() => import('../features/sync/exports/ExportAddPage')),
  '/settings': lazy(() => import('../features/settings/SettingsIndexPage')),
  '/settings/account-setup': lazy(() => import('../features/sync/account-setup/AccountSetupPage')),
  '/settings/practitioners': lazy(() => import('../features/settings/practitioners/PractitionersSettingsPage')),
  // Users and invitations.
  '/settings/users': lazy(() => import('../features/settings/users/UsersSettingsPage')),
  // The data the optimiser needs.
  '/settings/business-locations': lazy(() => import('../features/settings/business-locations/BusinessLocationsPage')),
  '/settings/custom-locations': lazy(() => import('../features/settings/custom-locations/CustomLocationsPage')),
  '/settings/optimization-settings': lazy(() => import('../features/settings/optimization-settings/OptimizationSettingsPage')),
  '/settings/tags': lazy(() => import('../features/settings/tags/TagsSettingsPage')),
  '/settings/provider-account': lazy(() => import('../features/sync/provider-account/ProviderAccountPage')),
  '/settings/provider-account/add': lazy(() => import('../features/sync/provider-account/AddProviderAccountPage')),
  '/settings/sync-settings': lazy(() => import('../features/sync/settings/SyncSettingsPage')),
  '/settings/appointment-types': lazy(() => import('../features/settings/appointment-types/AppointmentTypesPage')),
  '/settings/my-account': lazy(() => import('../features/settings/MyAccountPage')),
  '/settings/public-holidays': lazy(() => import('../features/settings/public-holidays/PublicHolidaysPage')),
  '/settings/business-account': lazy(() => import('../features/settings/business-account/BusinessAccountPage')),
  '/settings/subscription': lazy(() => import('../features/settings/subscription/SubscriptionPage')),
  '/payment-required': lazy(() => import('../features/settings/subscription/PaymentRequiredPage')),
  '/help': lazy(() => import('../features/help/HelpPage')),
  '/login': lazy(() => import('../features/auth/LoginPage')),
  '/login-as': lazy(() => import('../features/auth/LoginAsPage')),
  '/reset-password': lazy(() => import('../features/auth/ResetPasswordPage')),
  '/accept-invitation': lazy(() => import('../features/auth/AcceptInvitationPage')),
  '/client/update-availability': lazy(() => import('../features/public-availability/UpdateAvailabilityPage')),
  '/client/reminders/unsubscribe': lazy(() => import('../features/public-reminders/UnsubscribePage')),
  '/errors/404': lazy(() => import('../shell/errors/NotFoundPage')),
  '/errors/500': lazy(() => import('../shell/errors/ServerErrorPage')),
};

function pageOf(path: string): AppRoute['component'] {
  const page = pages[path];
  if (!page) throw new Error(`Route ${path} has no page in routeTable.ts`);
  return page;
}

export const routes: readonly AppRoute[] = routeMetas.map((meta) => ({ ...meta, component: pageOf(meta.path) }));

export const notFoundRoute: AppRoute = routes.find((route) => route.path === '/errors/404')!;

export const sidebarRoutes = routes.filter((route) => route.sidebar !== undefined);

export function findRoute(path: string): AppRoute | undefined {
  const meta = findRouteMeta(path);
  return meta && routes.find((route) => route.path === meta.path);
}
