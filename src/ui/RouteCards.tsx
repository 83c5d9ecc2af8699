// An index page's cards, one per page of a section (settings, reports): a working page is a card that links to it
// with what it is for; a page still to come is a muted card marked "Coming soon", not a link.
import { Link } from 'wouter';
import type { RouteMeta } from '../routes/routeTypes';

const cardClass = 'block h-full rounded-xl border p-4';

function RouteCard({ route, testId }: { route: RouteMeta; testId: string }) {
  if (route.comingSoon) {
    return (
      <div
        aria-disabled="true"
        data-testid={`${testId}-coming-soon`}
        className={`${cardClass} border-dashed border-slate-200 bg-slate-50 text-slate-500 dark:border-slate-800 dark:bg-slate-900/40 dark:text-slate-500`}
      >
        <span className="flex items-center justify-between gap-2">
          <span className="font-medium text-slate-600 dark:text-slate-400">{route.title}</span>
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400">Coming soon</span>
        </span>
        <span className="mt-1 block text-sm">{route.comingSoon}</span>
      </div>
    );
  }
  return (
    <Link
      href={route.path}
      className={`${cardClass} border-slate-200 bg-white shadow-sm transition hover:border-sky-300 hover:shadow dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-700`}
    >
      <span className="font-medium text-slate-900 dark:text-white">{route.title}</span>
      {route.description && <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{route.description}</span>}
    </Link>
  );
}

/** Working pages first, in the route table's order; the pages still to come after them. */
export function RouteCards({ routes, label, testId }: { routes: readonly RouteMeta[]; label: string; testId: string }) {
  const ordered = [...routes.filter((route) => !route.comingSoon), ...routes.filter((route) => route.comingSoon)];
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={label}>
      {ordered.map((route) => (
        <li key={route.path}>
          <RouteCard route={route} testId={testId} />
        </li>
      ))}
    </ul>
  );
}
