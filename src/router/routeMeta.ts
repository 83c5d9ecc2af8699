// Every route of the product as data, without its page: the guards, the sidebar, the dashboard and the
// settings index read from here. A leaf module: it imports no page, so pages may import it;
// routeTable.ts gives each route its page.
import type { Role } from '../api/types';
import type { RouteMeta } from './routeTypes';

const ADMIN_ONLY = ['ADMIN'] as const satisfies readonly Role[];
const STAFF = ['ADMIN', 'REGULAR_USER'] as const satisfies readonly Role[];

/** A page in the layout, with the line saying what it is for (the settings and reports indexes show it). */
function page(path: string, title: string, roles: readonly Role[] | undefined, description: string, sidebar?: RouteMeta['sidebar']): RouteMeta {
  return { path, title, roles, requiresAuth: true, inLayout: true, description, sidebar };
}

const report = (slug: string, title: string, what: string) => page(`/reports/${slug}`, title, ADMIN_ONLY, what);

export const routeMetas: readonly RouteMeta[] = [
  { path: '/dashboard', title: 'Dashboard', requiresAuth: true, inLayout: true, sidebar: { label: 'Dashboard', icon: 'dashboard' } },
  { path: '/appointments', title: 'Appointments', requiresAuth: true, inLayout: true, sidebar: { label: 'Appointments', icon: 'appointments' } },
  page('/open-visits', 'Open visits', STAFF, 'Visits that need a practitioner, filled one by one or planned for the care plans’ weeks ahead.', { label: 'Open visits', icon: 'openVisits' }),
  page('/search', 'Nearby search', STAFF, 'Find clients near an address or a client, and who could take a new visit there.', { label: 'Nearby search', icon: 'search' }),
  { path: '/clients', title: 'Clients', requiresAuth: true, inLayout: true, sidebar: { label: 'Clients', icon: 'clients' } },
  page('/reports', 'Reports', ADMIN_ONLY, 'Activity, travel, performance and client geography reports.', { label: 'Reports', icon: 'reports' }),
  report('activity', 'Activity report', 'Who imported, exported, optimised or changed what (arrival times, availability, tags, settings, users), and when.'),
  report('appointments', 'Appointments report', 'Visits and hours by practitioner, type, location or day, with cancellations and visits outside availability.'),
  report('practitioner-travel', 'Practitioner travel', 'Distance and time each practitioner travels between visits, per day and per leg.'),
  report('practitioner-performance', 'Practitioner performance', 'Visits, utilisation, idle time, punctuality and continuity per practitioner.'),
  report('clients-missing-address', 'Clients missing address', 'Clients whose address is incomplete or only placed at the suburb, with their next visit, to fix before routing.'),
  report('client-travel', 'Client travel', 'Travel attributed to each client’s visits, capped and priced per km, for invoicing.'),
  report('visit-verification', 'Visit verification', 'Each visit’s actual arrival and departure, where and how far from the client, with punctuality, durations and missed visits against the plan (EVV export).'),
  report('client-geography', 'Client geography', 'Where clients live, by suburb or postcode, and who is beyond the service radius.'),
  page('/imports', 'Imports', ADMIN_ONLY, 'The history of appointment imports from the practice management system.'),
  page('/imports/add', 'New import', ADMIN_ONLY, 'Start an import of appointments for a date range.'),
  page('/exports', 'Exports', ADMIN_ONLY, 'The history of appointment-time exports to the practice management system.'),
  page('/exports/add', 'New export', ADMIN_ONLY, 'Start an export of appointment times for a date range.'),
  { path: '/settings', title: 'Settings', roles: ADMIN_ONLY, requiresAuth: true, inLayout: true, sidebar: { label: 'Settings', icon: 'settings' } },
  page('/settings/account-setup', 'Account setup', ADMIN_ONLY, 'Connect your practice management system and import its practitioners, locations and appointment types.'),
  page('/settings/users', 'Users', ADMIN_ONLY, 'Invite staff and practitioners, change their roles, and deactivate those who leave.'),
  page('/settings/practitioners', 'Practitioners', ADMIN_ONLY, 'Where each practitioner’s day starts and ends, their hours, qualifications, limits and colour.'),
  page('/settings/business-locations', 'Business locations', ADMIN_ONLY, 'The locations imported from your practice management system, with their map positions.'),
  page('/settings/custom-locations', 'Custom locations', ADMIN_ONLY, 'Places where a practitioner’s day can start or end that are not clients or business locations, such as depots, with their pins on the map.'),
  { path: '/settings/tags', title: 'Tags', roles: ADMIN_ONLY, requiresAuth: true, inLayout: true, description: 'The tags you put on clients, with their names and colours.' },
  page('/settings/provider-account', 'Provider account', ADMIN_ONLY, 'The connection to your practice management system.'),
  page('/settings/provider-account/add', 'Add provider account', ADMIN_ONLY, 'Connect a practice management system account.'),
  page('/settings/sync-settings', 'Sync settings', ADMIN_ONLY, 'Automatic imports and exports and their filters.'),
  page('/settings/optimization-settings', 'Optimization settings', ADMIN_ONLY, 'How schedules and routes are optimised.'),
  { path: '/settings/appointment-types', title: 'Appointment types', requiresAuth: true, inLayout: true, description: 'How long each kind of visit takes, and its colour.' },
  { ...page('/settings/subscription', 'Subscription info', ADMIN_ONLY, 'Your plan, trial, seats, payment method and this month’s usage.'), openWhilePaymentRequired: true },
  page('/settings/public-holidays', 'Public holidays', STAFF, 'Days care plans generate no visits on.'),
  page('/settings/business-account', 'Account settings', ADMIN_ONLY, 'Your business name, time zone, contact details, map centre, week start, reminders, when an arrival is flagged as far and how many weeks of care visits are planned ahead.'),
  { path: '/settings/my-account', title: 'My account', requiresAuth: true, inLayout: true, description: 'Your name, email and password.', openWhilePaymentRequired: true },
  { path: '/payment-required', title: 'Payment required', requiresAuth: true, inLayout: true, openWhilePaymentRequired: true },
  { path: '/help', title: 'User guide', requiresAuth: true, inLayout: true, openWhilePaymentRequired: true },

  { path: '/login', title: 'Log in', requiresAuth: false, inLayout: false },
  { path: '/login-as', title: 'Log in', requiresAuth: false, inLayout: false },
  { path: '/reset-password', title: 'Reset password', requiresAuth: false, inLayout: false },
  { path: '/accept-invitation', title: 'Accept invitation', requiresAuth: false, inLayout: false },
  { path: '/client/update-availability', title: 'Update availability', requiresAuth: false, inLayout: false },
  { path: '/client/reminders/unsubscribe', title: 'Stop reminders', requiresAuth: false, inLayout: false },
  { path: '/errors/404', title: 'Page not found', requiresAuth: false, inLayout: false },
  { path: '/errors/500', title: 'Server error', requiresAuth: false, inLayout: false },
];

export const sidebarRouteMetas = routeMetas.filter((route) => route.sidebar !== undefined);

function normalizePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export function findRouteMeta(path: string): RouteMeta | undefined {
  const normalized = normalizePath(path);
  return routeMetas.find((route) => route.path === normalized);
}
