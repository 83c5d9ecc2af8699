import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated, selectRole } from '../../machines/auth';
import { canSee } from '../../router/access';
import { routeMetas } from '../../router/routeMeta';
import { PageHeader } from '../../ui/PageHeader';
import { RouteCards } from '../../ui/RouteCards';

const settingsPages = routeMetas.filter((route) => route.path.startsWith('/settings/') && route.path !== '/settings/provider-account/add');

export default function SettingsIndexPage() {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  return (
    <>
      <PageHeader title="Settings">Configure your account, your team and how Rounds syncs and plans.</PageHeader>
      <RouteCards routes={settingsPages.filter((route) => canSee(route, { authenticated, role }))} label="Settings pages" />
    </>
  );
}
