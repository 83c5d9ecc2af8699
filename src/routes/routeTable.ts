// Every route of the product as data: the router, the guards, the sidebar and the page titles
// all read from here (spec section 2).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Role } from '../api/types';

export const PRODUCT_NAME = 'Rounds';

export interface RoutePageProps {
  route: AppRoute;
}

export type SidebarIcon = 'dashboard' | 'appointments' | 'search' | 'clients' | 'reports' | 'settings';

export interface AppRoute {
  path: string;
  /** Shown in the tab as "{title} - Rounds" and as the page heading. */
  title: string;
  /** Who may open it; undefined means any authenticated user (when `requiresAuth`). */
  roles?: readonly Role[];
  requiresAuth: boolean;
  inLayout: boolean;
  component: LazyExoticComponent<ComponentType<RoutePageProps>>;
  /** For pages whose content arrives with a later capability: what will be here. */
  comingSoon?: string;
  /** One line saying what the page is for (the settings index shows it on the page's card). */
  description?: string;
  sidebar?: { label: string; icon: SidebarIcon };
}

const ADMIN_ONLY = ['ADMIN'] as const satisfies readonly Role[];
const STAFF = ['ADMIN', 'REGULAR_USER'] as const satisfies readonly Role[];

const ComingSoonPage = lazy(() => import('../views/common/ComingSoonPage'));
const DashboardPage = lazy(() => import('../views/dashboard/DashboardPage'));
const SettingsIndexPage = lazy(() => import('../views/settings/SettingsIndexPage'));
const MyAccountPage = lazy(() => import('../views/settings/MyAccountPage'));
const LoginPage = lazy(() => import('../views/auth/LoginPage'));
const LoginAsPage = lazy(() => import('../views/auth/LoginAsPage'));
const ResetPasswordPage = lazy(() => import('../views/auth/ResetPasswordPage'));
const NotFoundPage = lazy(() => import('../views/errors/NotFoundPage'));
const ServerErrorPage = lazy(() => import('../views/errors/ServerErrorPage'));
// Issue 4 (sync): imports, exports and the sync settings pages.
const ImportsPage = lazy(() => import('../views/imports/ImportsPage'));
const ImportAddPage = lazy(() => import('../views/imports/ImportAddPage'));
const ExportsPage = lazy(() => import('../views/exports/ExportsPage'));
const ExportAddPage = lazy(() => import('../views/exports/ExportAddPage'));
const AccountSetupPage = lazy(() => import('../views/settings/account-setup/AccountSetupPage'));
const ProviderAccountPage = lazy(() => import('../views/settings/provider-account/ProviderAccountPage'));
const AddProviderAccountPage = lazy(() => import('../views/settings/provider-account/AddProviderAccountPage'));
const SyncSettingsPage = lazy(() => import('../views/settings/sync-settings/SyncSettingsPage'));

/** A page() whose content now exists: its component replaces the coming-soon placeholder. */
function built(route: AppRoute, component: AppRoute['component']): AppRoute {
  return { ...route, component, comingSoon: undefined, description: route.comingSoon };
}
const ClientsPage = lazy(() => import('../views/clients/ClientsPage'));
const AppointmentsPage = lazy(() => import('../views/appointments/AppointmentsPage'));
const TagsSettingsPage = lazy(() => import('../views/settings/tags/TagsSettingsPage'));
const AppointmentTypesPage = lazy(() => import('../views/settings/appointment-types/AppointmentTypesPage'));
const UpdateAvailabilityPage = lazy(() => import('../views/public/UpdateAvailabilityPage'));
const PractitionersSettingsPage = lazy(() => import('../views/settings/practitioners/PractitionersSettingsPage'));
const HelpPage = lazy(() => import('../views/help/HelpPage'));

function page(path: string, title: string, roles: readonly Role[] | undefined, comingSoon: string, sidebar?: AppRoute['sidebar']): AppRoute {
  return { path, title, roles, requiresAuth: true, inLayout: true, component: ComingSoonPage, comingSoon, description: comingSoon, sidebar };
}

const report = (slug: string, title: string, what: string) =>
  page(`/reports/${slug}`, title, ADMIN_ONLY, what);

export const routes: readonly AppRoute[] = [
  { path: '/dashboard', title: 'Dashboard', requiresAuth: true, inLayout: true, component: DashboardPage, sidebar: { label: 'Dashboard', icon: 'dashboard' } },
  { path: '/appointments', title: 'Appointments', requiresAuth: true, inLayout: true, component: AppointmentsPage, sidebar: { label: 'Appointments', icon: 'appointments' } },
  page('/search', 'Nearby search', STAFF, 'Find clients and visits near an address or another client.', { label: 'Nearby search', icon: 'search' }),
  { path: '/clients', title: 'Clients', requiresAuth: true, inLayout: true, component: ClientsPage, sidebar: { label: 'Clients', icon: 'clients' } },
  page('/reports', 'Reports', ADMIN_ONLY, 'Activity, travel, performance and client geography reports.', { label: 'Reports', icon: 'reports' }),
  report('activity', 'Activity report', 'Imports, exports and edits over a period.'),
  report('appointments', 'Appointments report', 'Appointments by practitioner, type and location over a period.'),
  report('practitioner-travel', 'Practitioner travel', 'Distance and time each practitioner travels between visits.'),
  report('practitioner-performance', 'Practitioner performance', 'Visits, utilisation and punctuality per practitioner.'),
  report('clients-missing-address', 'Clients missing address', 'Clients whose address is incomplete, so they cannot be placed on a route.'),
  report('client-travel', 'Client travel', 'Travel attributed to each client’s visits.'),
  report('client-geography', 'Client geography', 'Where clients live, by region.'),
  built(page('/imports', 'Imports', ADMIN_ONLY, 'The history of appointment imports from the practice management system.'), ImportsPage),
  built(page('/imports/add', 'New import', ADMIN_ONLY, 'Start an import of appointments for a date range.'), ImportAddPage),
  built(page('/exports', 'Exports', ADMIN_ONLY, 'The history of appointment-time exports to the practice management system.'), ExportsPage),
  built(page('/exports/add', 'New export', ADMIN_ONLY, 'Start an export of appointment times for a date range.'), ExportAddPage),
  { path: '/settings', title: 'Settings', roles: ADMIN_ONLY, requiresAuth: true, inLayout: true, component: SettingsIndexPage, sidebar: { label: 'Settings', icon: 'settings' } },
  built(page('/settings/account-setup', 'Account setup', ADMIN_ONLY, 'Connect your practice management system and import its practitioners, locations and appointment types.'), AccountSetupPage),
  page('/settings/users', 'Users', ADMIN_ONLY, 'Invite staff and practitioners and manage their roles.'),
  built(page('/settings/practitioners', 'Practitioners', ADMIN_ONLY, 'Your practitioners and the colour each has on the schedule and the map.'), PractitionersSettingsPage),
  page('/settings/business-locations', 'Business locations', ADMIN_ONLY, 'The locations of your business.'),
  page('/settings/custom-locations', 'Custom locations', ADMIN_ONLY, 'Places that are not clients or business locations, such as depots.'),
  { path: '/settings/tags', title: 'Tags', roles: ADMIN_ONLY, requiresAuth: true, inLayout: true, component: TagsSettingsPage, description: 'The tags you put on clients, with their names and colours.' },
  built(page('/settings/provider-account', 'Provider account', ADMIN_ONLY, 'The connection to your practice management system.'), ProviderAccountPage),
  built(page('/settings/provider-account/add', 'Add provider account', ADMIN_ONLY, 'Connect a practice management system account.'), AddProviderAccountPage),
  built(page('/settings/sync-settings', 'Sync settings', ADMIN_ONLY, 'Automatic imports and exports and their filters.'), SyncSettingsPage),
  page('/settings/optimization-settings', 'Optimization settings', ADMIN_ONLY, 'How schedules and routes are optimised.'),
  { path: '/settings/appointment-types', title: 'Appointment types', requiresAuth: true, inLayout: true, component: AppointmentTypesPage, description: 'How long each kind of visit takes, and its colour.' },
  page('/settings/subscription', 'Subscription info', ADMIN_ONLY, 'Your plan and billing.'),
  page('/settings/business-account', 'Account settings', ADMIN_ONLY, 'Your business name, time zone and defaults.'),
  { path: '/settings/my-account', title: 'My account', requiresAuth: true, inLayout: true, component: MyAccountPage, description: 'Your name, email and password.' },
  { path: '/help', title: 'User guide', requiresAuth: true, inLayout: true, component: HelpPage },

  { path: '/login', title: 'Log in', requiresAuth: false, inLayout: false, component: LoginPage },
  { path: '/login-as', title: 'Log in', requiresAuth: false, inLayout: false, component: LoginAsPage },
  { path: '/reset-password', title: 'Reset password', requiresAuth: false, inLayout: false, component: ResetPasswordPage },
  { path: '/client/update-availability', title: 'Update availability', requiresAuth: false, inLayout: false, component: UpdateAvailabilityPage },
  { path: '/errors/404', title: 'Page not found', requiresAuth: false, inLayout: false, component: NotFoundPage },
  { path: '/errors/500', title: 'Server error', requiresAuth: false, inLayout: false, component: ServerErrorPage },
];

export const notFoundRoute: AppRoute = routes.find((route) => route.path === '/errors/404')!;

export const sidebarRoutes = routes.filter((route) => route.sidebar !== undefined);

export function findRoute(path: string): AppRoute | undefined {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return routes.find((route) => route.path === normalized);
}

export function pageTitle(title: string | undefined): string {
  return title ? `${title} - ${PRODUCT_NAME}` : PRODUCT_NAME;
}
