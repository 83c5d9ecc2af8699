import { Link } from 'wouter';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated, selectRole, selectUser } from '../../machines/auth';
import { greetingFor } from '../../lib/greeting';
import { canSee } from '../../routes/access';
import { sidebarRouteMetas } from '../../routes/routeMeta';
import { Icon } from '../../ui/Icon';
import { Card, PageHeader } from '../../ui/PageHeader';
import { useShownTimeZone } from '../../app/timeZone';
import { Button } from '../../ui/Button';

export default function DashboardPage() {
  const user = useAuthSelector(selectUser);
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const greeting = greetingFor(new Date());
  const timeZone = useShownTimeZone();
  const destinations = sidebarRouteMetas.filter((route) => route.path !== '/dashboard' && canSee(route, { authenticated, role }));
  return (
    <>
      <PageHeader title="Dashboard" />
      <Card>
        <h2 className="text-xl font-semibold text-slate-900 dark:text-white" data-testid="dashboard-greeting">
          {user ? `${greeting}, ${user.first_name}` : greeting}
        </h2>
        {user && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {user.business_account.name} · times shown in <span data-testid="dashboard-time-zone">{timeZone}</span>
          </p>
        )}
        {role === 'PRACTITIONER' && (
          // A practitioner's day is their run sheet: the visits in order with directions (the appointments page's first view for them).
          <Button href="/appointments" className="mt-4 w-full sm:w-auto">Open today’s run sheet</Button>
        )}
      </Card>
      <nav aria-label="Go to" className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {destinations.map((route) => (
          <Link
            key={route.path}
            href={route.path}
            className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm font-medium text-slate-700 shadow-sm transition hover:border-sky-300 hover:text-slate-900 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200 dark:hover:border-sky-700 dark:hover:text-white"
          >
            <span className="flex size-9 items-center justify-center rounded-lg bg-sky-50 text-sky-600 dark:bg-sky-950 dark:text-sky-400">
              <Icon name={route.sidebar!.icon} />
            </span>
            {route.sidebar!.label}
          </Link>
        ))}
      </nav>
    </>
  );
}
