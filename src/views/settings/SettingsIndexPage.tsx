import { Link } from 'wouter';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated, selectRole } from '../../machines/auth';
import { canSee } from '../../routes/access';
import { routes } from '../../routes/routeTable';
import { PageHeader } from '../common/PageHeader';

const settingsPages = routes.filter((route) => route.path.startsWith('/settings/') && route.path !== '/settings/provider-account/add');

export default function SettingsIndexPage() {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const pages = settingsPages.filter((route) => canSee(route, { authenticated, role }));
  return (
    <>
      <PageHeader title="Settings">Configure your account, your team and how Rounds syncs and plans.</PageHeader>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Settings pages">
        {pages.map((route) => (
          <li key={route.path}>
            <Link
              href={route.path}
              className="block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-sky-300 hover:shadow dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-700"
            >
              <span className="font-medium text-slate-900 dark:text-white">{route.title}</span>
              {route.comingSoon && <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{route.comingSoon}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
