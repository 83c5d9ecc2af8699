// An index page's cards, one per page of a section (settings, reports): each links to its page with what it is for.
import { Link } from 'wouter';
import type { RouteMeta } from '../router/routeTypes';

function RouteCard({ route }: { route: RouteMeta }) {
  return (
    <Link
      href={route.path}
      className="block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-sky-300 hover:shadow dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-700"
    >
      <span className="font-medium text-slate-900 dark:text-white">{route.title}</span>
      {route.description && <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{route.description}</span>}
    </Link>
  );
}

/** The section's pages, in the route table's order. */
export function RouteCards({ routes, label }: { routes: readonly RouteMeta[]; label: string }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={label}>
      {routes.map((route) => (
        <li key={route.path}>
          <RouteCard route={route} />
        </li>
      ))}
    </ul>
  );
}
