import { useAuthSelector } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { greetingFor } from '../../lib/greeting';
import { Card, PageHeader } from '../common/PageHeader';
import { browserTimeZone } from '../layout/Sidebar';

export default function DashboardPage() {
  const user = useAuthSelector(selectUser);
  const greeting = greetingFor(new Date());
  return (
    <>
      <PageHeader title="Dashboard" />
      <Card>
        <h2 className="text-xl font-semibold text-slate-900 dark:text-white" data-testid="dashboard-greeting">
          {user ? `${greeting}, ${user.first_name}` : greeting}
        </h2>
        {user && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {user.business_account.name} · times shown in {browserTimeZone()}
          </p>
        )}
      </Card>
    </>
  );
}
